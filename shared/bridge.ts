// The contract between the UI and the node side. The Electron preload exposes it over IPC; `switchyard serve`
// will serve the same handlers over HTTP. The renderer only ever sees this interface.

export interface AppInfo {
  version: string;
  /** The gateway's base URL (ending in /api/v1), or null while it is not listening. */
  gatewayUrl: string | null;
}

export interface Bridge {
  appInfo(): Promise<AppInfo>;
}

/** IPC channel names, `area:verb`. */
export const bridgeChannels = {
  appInfo: 'app:info',
} as const satisfies Record<keyof Bridge, string>;
