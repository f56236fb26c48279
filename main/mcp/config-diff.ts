// What a settings change means for a running server. Only fields that shape the process or the connection
// need a restart; `timeout`, `autoApprove` and `disabledTools` are read at call time, so editing them restarts
// nothing.

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
    ...launch
  } = config;
  // Sorted top-level fields; not JSON.stringify's key list, which would also drop every nested key (env's, headers').
  return JSON.stringify(Object.entries(launch).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
