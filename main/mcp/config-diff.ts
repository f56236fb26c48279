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
  return JSON.stringify(launch, Object.keys(launch).sort());
}
