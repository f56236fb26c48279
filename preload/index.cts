// Runs in the sandboxed renderer before the page: exposes the typed bridge and nothing else.

// A sandboxed preload is CommonJS, so electron comes in through require.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
import type { Bridge } from '../shared/bridge.js';

// Channel names are repeated from shared/bridge.ts because a sandboxed preload cannot load ES modules;
// the `satisfies` below makes the compiler check the two stay in step.
const channels = { appInfo: 'app:info' } as const satisfies Record<keyof Bridge, string>;

const { contextBridge, ipcRenderer } = electron;

const bridge: Bridge = {
  appInfo: () => ipcRenderer.invoke(channels.appInfo),
};

contextBridge.exposeInMainWorld('switchyard', bridge);
