// Codex: a custom model provider in $CODEX_HOME/config.toml (default ~/.codex) speaking the Responses API, the
// only wire protocol current Codex accepts, with its key read from an environment variable (env_key). Codex loads
// $CODEX_HOME/.env at start, so the key goes there (0600) and nothing has to be exported in a shell.
//
// Verified against: https://developers.openai.com/codex/config-advanced (model_providers: name, base_url, env_key,
// wire_api = "responses"; model_provider and model at the root) and openai/codex codex-rs/arg0/src/lib.rs
// (load_dotenv: "Load env vars from ~/.codex/.env", CODEX_-prefixed names refused).

import path from 'node:path';
import { dotenvEdit } from './edit-dotenv.js';
import { setTomlValues, type TomlSettings } from './edit-toml.js';
import {
  aliasNote,
  homeDir,
  keyVariable,
  providerName,
  type ConnectContext,
  type ToolDefinition,
} from './tool-definition.js';

const providerId = 'switchyard';

function files(context: Pick<ConnectContext, 'home' | 'env'>) {
  const codexHome = homeDir(context, 'CODEX_HOME', '.codex');
  return { config: path.join(codexHome, 'config.toml'), env: path.join(codexHome, '.env') };
}

function tomlSettings(context: ConnectContext): TomlSettings {
  return {
    root: { model_provider: providerId, ...(context.model ? { model: context.model } : {}) },
    table: {
      name: `model_providers.${providerId}`,
      values: { name: providerName, base_url: `${context.origin}/v1`, env_key: keyVariable, wire_api: 'responses' },
    },
  };
}

export const codex: ToolDefinition = {
  id: 'codex',
  name: 'Codex',
  aliases: ['codex-cli'],
  docs: ['https://developers.openai.com/codex/config-advanced', 'https://developers.openai.com/codex/config-reference'],
  modelOptional: true,
  files: (context) => Object.values(files(context)),
  edits(context) {
    const { config, env } = files(context);
    const settings = tomlSettings(context);
    return [
      {
        path: config,
        keys: [
          ...Object.keys(settings.root),
          ...Object.keys(settings.table.values).map((key) => `${settings.table.name}.${key}`),
        ],
        holdsSecret: false,
        apply: (current) => setTomlValues(current, settings, config),
      },
      dotenvEdit(env, { [keyVariable]: context.secret }),
    ];
  },
  notes(context) {
    return [
      'Restart Codex: it reads config.toml and .env when it starts.',
      `Codex reads the key from ${keyVariable} in ${files(context).env}, which overrides one exported in your shell.`,
      context.model
        ? `Codex asks for "${context.model}". It warns that it has no metadata for a model it does not know: harmless.`
        : aliasNote('Codex', 'gpt-5-codex and the like'),
    ];
  },
};
