// opencode: a custom provider in ~/.config/opencode/opencode.json (opencode.jsonc when that is the file there)
// using @ai-sdk/openai-compatible against the gateway's /v1 chat completions, with the key in options.apiKey and
// the chosen model listed under `models` and made the default (`model: "switchyard/<provider>/<model>"`; opencode
// splits at the first slash).
//
// Verified against: https://opencode.ai/docs/providers#custom-provider (npm, name, options.baseURL,
// options.apiKey, models) and https://opencode.ai/docs/config (global config location, JSONC, `model`).

import fs from 'node:fs';
import path from 'node:path';
import { setJsonValues } from './edit-json.js';
import { homeDir, providerName, type ConnectContext, type ToolDefinition } from './tool-definition.js';

const providerId = 'switchyard';

function configFile(context: Pick<ConnectContext, 'home' | 'env'>): string {
  const directory = path.join(homeDir(context, 'XDG_CONFIG_HOME', '.config'), 'opencode');
  const json = path.join(directory, 'opencode.json');
  const jsonc = path.join(directory, 'opencode.jsonc');
  return !fs.existsSync(json) && fs.existsSync(jsonc) ? jsonc : json;
}

export const opencode: ToolDefinition = {
  id: 'opencode',
  name: 'opencode',
  aliases: [],
  docs: ['https://opencode.ai/docs/providers#custom-provider', 'https://opencode.ai/docs/config'],
  modelOptional: false,
  files: (context) => [configFile(context)],
  edits(context) {
    const file = configFile(context);
    const model = context.model!;
    const provider = {
      npm: '@ai-sdk/openai-compatible',
      name: providerName,
      options: { baseURL: `${context.origin}/v1`, apiKey: context.secret },
      models: { [model]: { name: model } },
    };
    return [
      {
        path: file,
        keys: [`provider.${providerId}`, 'model'],
        holdsSecret: true,
        apply: (current) =>
          setJsonValues(
            current,
            [
              [['$schema'], current === null ? 'https://opencode.ai/config.json' : undefined],
              [['provider', providerId], provider],
              [['model'], `${providerId}/${model}`],
            ].filter(([, value]) => value !== undefined) as [string[], unknown][],
            file,
          ),
      },
    ];
  },
  notes(context) {
    return [
      `Restart opencode. It starts on "${providerId}/${context.model}"; /models lists it under ${providerName}.`,
      'An opencode.json in a project overrides `model` there.',
    ];
  },
};
