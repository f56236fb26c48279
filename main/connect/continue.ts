// Continue: a `models` entry in ~/.continue/config.yaml with provider `openai`, the gateway's /v1 as apiBase and
// the key as apiKey; a new file gets the name, version and schema Continue requires. Continue reloads the file
// when it changes.
//
// Verified against: https://docs.continue.dev/customize/model-providers/top-level/openai (models: name,
// provider: openai, model, apiBase, apiKey; name, version, schema: v1 at the top).

import path from 'node:path';
import { setYamlListEntry } from './edit-yaml.js';
import { providerName, type ConnectContext, type ToolDefinition } from './tool-definition.js';

const configFile = (context: Pick<ConnectContext, 'home'>) => path.join(context.home, '.continue', 'config.yaml');
const entryPrefix = `${providerName} `;

export const continueTool: ToolDefinition = {
  id: 'continue',
  name: 'Continue',
  aliases: ['continue-dev'],
  docs: ['https://docs.continue.dev/customize/model-providers/top-level/openai'],
  modelOptional: false,
  files: (context) => [configFile(context)],
  edits(context) {
    const file = configFile(context);
    const entry = {
      name: `${entryPrefix}${context.model}`,
      provider: 'openai',
      model: context.model!,
      apiBase: `${context.origin}/v1`,
      apiKey: context.secret,
    };
    return [
      {
        path: file,
        keys: [`models[name="${entry.name}"]`],
        holdsSecret: true,
        apply: (current) =>
          setYamlListEntry(
            current,
            {
              list: 'models',
              entry,
              isOurs: (item) =>
                typeof (item as { name?: unknown } | null)?.name === 'string' &&
                (item as { name: string }).name.startsWith(entryPrefix) &&
                (item as { provider?: unknown }).provider === 'openai',
              newFile: { name: 'Local Config', version: '1.0.0', schema: 'v1' },
            },
            file,
          ),
      },
    ];
  },
  notes(context) {
    return [`Pick "${entryPrefix}${context.model}" in Continue's model list; Continue reloads config.yaml on its own.`];
  },
};
