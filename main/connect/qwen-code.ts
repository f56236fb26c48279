// Qwen Code: ~/.qwen/settings.json declares the model under `modelProviders.openai` (OpenAI-compatible, the
// gateway's /v1 base) with the key read from SWITCHYARD_API_KEY, selects the `openai` auth type and makes the
// model the default; the key itself goes in ~/.qwen/.env (0600), which Qwen Code loads when no project .env
// comes first. A dedicated variable, not OPENAI_API_KEY: an OpenAI key exported in the shell would win over .env.
//
// Verified against: https://qwenlm.github.io/qwen-code-docs/en/users/configuration/auth/ (modelProviders entries
// with id, name, baseUrl, envKey; security.auth.selectedType; model.name; .qwen/.env search order and priority).

import path from 'node:path';
import { dotenvEdit } from './edit-dotenv.js';
import { objectAt, parseJsonSettings, setJsonValues } from './edit-json.js';
import { keyVariable, providerName, type ConnectContext, type ToolDefinition } from './tool-definition.js';

function files(context: Pick<ConnectContext, 'home'>) {
  const qwenDir = path.join(context.home, '.qwen');
  return { settings: path.join(qwenDir, 'settings.json'), env: path.join(qwenDir, '.env') };
}

export const qwenCode: ToolDefinition = {
  id: 'qwen-code',
  name: 'Qwen Code',
  aliases: ['qwen'],
  docs: ['https://qwenlm.github.io/qwen-code-docs/en/users/configuration/auth/'],
  modelOptional: false,
  files: (context) => [files(context).settings, files(context).env],
  edits(context) {
    const { settings, env } = files(context);
    const model = context.model!;
    const ours = {
      id: model,
      name: `${model} (${providerName})`,
      baseUrl: `${context.origin}/v1`,
      envKey: keyVariable,
    };
    return [
      {
        path: settings,
        keys: ['modelProviders.openai', 'security.auth.selectedType', 'model.name'],
        holdsSecret: false,
        apply(current) {
          const parsed = parseJsonSettings(current, settings);
          const listed = objectAt(parsed, ['modelProviders'])?.openai;
          // The first entry with an id wins in Qwen Code: ours goes first, earlier ones of ours go away.
          const others = (Array.isArray(listed) ? listed : []).filter(
            (entry) => (entry as { envKey?: unknown } | null)?.envKey !== keyVariable,
          );
          return setJsonValues(
            current,
            [
              [
                ['modelProviders', 'openai'],
                [ours, ...others],
              ],
              [['security', 'auth', 'selectedType'], 'openai'],
              [['model', 'name'], model],
            ],
            settings,
          );
        },
      },
      dotenvEdit(env, { [keyVariable]: context.secret }),
    ];
  },
  notes(context) {
    return [
      `Restart Qwen Code. It starts on "${context.model}"; /model lists it.`,
      `Qwen Code loads only the first .env it finds: a .qwen/.env or .env in your project's folders hides ${files(context).env}.`,
    ];
  },
};
