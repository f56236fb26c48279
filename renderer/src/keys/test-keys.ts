// A key with every rule set, for the keys tests.

import type { ApiKeyDetails, KeyRules } from '../../../shared/api/index.js';

export const editorPluginRules: KeyRules = {
  limit: 20,
  limit_reset: 'monthly',
  allowed_models: ['fake/echo-2', 'openai/*'],
  allowed_providers: null,
  management: true,
  expires_at: null,
  disabled: false,
  requests_per_minute: 60,
  tokens_per_minute: null,
  allowed_mcp: ['filesystem', 'everything__echo'],
  metrics: false,
};

export const editorPluginKey: ApiKeyDetails = {
  id: 'key-7',
  name: 'editor plugin',
  label: 'sk-sy-v1-3f2…9ab',
  created_at: '2026-01-01T00:00:00.000Z',
  last_used_at: null,
  ...editorPluginRules,
};
