// Claude Code: the `env` block of ~/.claude/settings.json, which Claude Code applies to itself at start. The
// gateway key goes in ANTHROPIC_AUTH_TOKEN (sent as `Authorization: Bearer`), the variable the LLM-gateway docs
// give for a gateway's own credential; ANTHROPIC_API_KEY (x-api-key) is meant for Anthropic's own keys. With a
// model, every model slot points at it: the main one and the haiku slot Claude Code uses for background work
// (ANTHROPIC_SMALL_FAST_MODEL is its deprecated name), so no request carries a model name the gateway cannot route.
//
// Verified against: https://code.claude.com/docs/en/llm-gateway-connect, https://code.claude.com/docs/en/env-vars
// (ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_MODEL, ANTHROPIC_DEFAULT_{OPUS,SONNET,HAIKU}_MODEL) and
// https://code.claude.com/docs/en/model-config.

import path from 'node:path';
import { setJsonValues } from './edit-json.js';
import { aliasNote, type ConnectContext, type ToolDefinition } from './tool-definition.js';

const settingsFile = (context: Pick<ConnectContext, 'home'>) => path.join(context.home, '.claude', 'settings.json');

const modelVariables = [
  'ANTHROPIC_MODEL',
  'ANTHROPIC_DEFAULT_OPUS_MODEL',
  'ANTHROPIC_DEFAULT_SONNET_MODEL',
  'ANTHROPIC_DEFAULT_HAIKU_MODEL',
];

function environment(context: ConnectContext): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: context.origin,
    ANTHROPIC_AUTH_TOKEN: context.secret,
    ...(context.model ? Object.fromEntries(modelVariables.map((name) => [name, context.model!])) : {}),
  };
}

export const claudeCode: ToolDefinition = {
  id: 'claude-code',
  name: 'Claude Code',
  aliases: ['claude'],
  docs: [
    'https://code.claude.com/docs/en/llm-gateway-connect',
    'https://code.claude.com/docs/en/env-vars',
    'https://code.claude.com/docs/en/model-config',
  ],
  modelOptional: true,
  files: (context) => [settingsFile(context)],
  edits(context) {
    const file = settingsFile(context);
    const variables = environment(context);
    return [
      {
        path: file,
        keys: Object.keys(variables).map((name) => `env.${name}`),
        holdsSecret: true,
        apply: (current) =>
          setJsonValues(
            current,
            Object.entries(variables).map(([name, value]) => [['env', name], value]),
            file,
          ),
      },
    ];
  },
  notes(context) {
    return [
      'Restart Claude Code: it reads settings.json when it starts. /status shows the gateway as "Anthropic base URL".',
      'If ANTHROPIC_API_KEY is set in your shell, unset it: Claude Code would send that key as well.',
      context.model
        ? `Claude Code asks for "${context.model}" for its main model and for its background (haiku) tasks.`
        : aliasNote('Claude Code', 'claude-sonnet-4-5 and a claude-haiku model for background tasks'),
    ];
  },
};
