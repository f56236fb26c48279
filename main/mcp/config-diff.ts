// What a settings change means for a running server. Only fields that shape the process or the connection
// need a restart; `timeout`, `autoApprove`, `disabledTools` and `sampling` are read at call time, so editing them
// restarts nothing.

import type { ServerConfig } from './settings-schema.js';

export type ConfigChange = 'none' | 'settings-only' | 'restart';

export function compareConfigs(before: ServerConfig, after: ServerConfig): ConfigChange {
  if (launchKey(before) !== launchKey(after)) return 'restart';
  return JSON.stringify(before) === JSON.stringify(after) ? 'none' : 'settings-only';
}

function launchKey(config: ServerConfig): string {
  const {
    name: _name,
    disabled: _disabled,
    autoApprove: _autoApprove,
    disabledTools: _disabledTools,
    timeoutSeconds: _timeout,
    sampling: _sampling,
    ...launch
  } = config;
  return JSON.stringify(sortedKeys(launch));
}

/** The value with every object's keys in order, at every depth: `env`, `headers` and `oauth` are launch fields too. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, entry]) => [key, sortedKeys(entry)]));
}
