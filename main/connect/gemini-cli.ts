// Gemini CLI: ~/.gemini/.env (GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL, GEMINI_MODEL), which Gemini CLI loads when
// no .env is found in the project's folders first, and `security.auth.selectedType = "gemini-api-key"` in
// ~/.gemini/settings.json so it uses that key instead of asking how to sign in (headless runs refuse the
// "gateway" auth type that GOOGLE_GEMINI_BASE_URL alone selects). It sends the key as x-goog-api-key to
// `<base>/v1beta/models/…`. GEMINI_CLI_HOME moves the .gemini folder. Gemini CLI 0.61 reads ~/.gemini/.env only
// in a trusted folder (its findEnvFile; tried against the real CLI): the note says so, and how to load it elsewhere.
//
// Verified against: https://geminicli.com/docs/get-started/authentication (GEMINI_API_KEY, ~/.gemini/.env, first
// .env file wins), https://geminicli.com/docs/reference/configuration (GEMINI_MODEL, GEMINI_CLI_HOME,
// security.auth.selectedType) and google-gemini/gemini-cli packages/core/src/core/contentGenerator.ts
// (GOOGLE_GEMINI_BASE_URL becomes the SDK's base URL).

import path from 'node:path';
import { dotenvEdit } from './edit-dotenv.js';
import { setJsonValues } from './edit-json.js';
import { aliasNote, homeDir, type ConnectContext, type ToolDefinition } from './tool-definition.js';

function files(context: Pick<ConnectContext, 'home' | 'env'>) {
  const geminiDir = path.join(homeDir(context, 'GEMINI_CLI_HOME'), '.gemini');
  return { env: path.join(geminiDir, '.env'), settings: path.join(geminiDir, 'settings.json') };
}

function environment(context: ConnectContext): Record<string, string> {
  return {
    GEMINI_API_KEY: context.secret,
    GOOGLE_GEMINI_BASE_URL: context.origin,
    ...(context.model ? { GEMINI_MODEL: context.model } : {}),
  };
}

export const geminiCli: ToolDefinition = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  aliases: ['gemini'],
  docs: ['https://geminicli.com/docs/get-started/authentication', 'https://geminicli.com/docs/reference/configuration'],
  modelOptional: true,
  files: (context) => Object.values(files(context)),
  edits(context) {
    const { env, settings } = files(context);
    return [
      dotenvEdit(env, environment(context)),
      {
        path: settings,
        keys: ['security.auth.selectedType'],
        holdsSecret: false,
        apply: (current) =>
          setJsonValues(current, [[['security', 'auth', 'selectedType'], 'gemini-api-key']], settings),
      },
    ];
  },
  notes(context) {
    return [
      'Restart Gemini CLI: it reads .env and settings.json when it starts.',
      `Gemini CLI reads ${files(context).env} only in folders you trust (it asks the first time it starts in one) ` +
        `and when no .env in the project's folders comes first. Elsewhere, load it into your shell first: ` +
        `set -a; . ${files(context).env}; set +a`,
      context.model
        ? `Gemini CLI asks for "${context.model}".`
        : aliasNote('Gemini CLI', 'gemini-2.5-pro, gemini-2.5-flash'),
    ];
  },
};
