// Runs in the sandboxed renderer before the page: exposes the bridge's transport (shared/bridge/transport.ts)
// as `window.switchyardBridge`, and nothing else. Main validates every call against the contract; a sandboxed
// preload cannot load the contract module, so here names are only checked for their shape.

// A sandboxed preload is CommonJS, so electron comes in through require.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
import type { BridgeTransport } from '../shared/bridge/transport.js';

// The same pattern as shared/bridge/contract.ts's bridgeNamePattern (main/bridge/create-bridge-handlers.test.ts
// keeps them equal).
const bridgeNamePattern = /^[a-z]+(?:-[a-z]+)*:[a-z]+(?:-[a-z]+)*$/;

const { contextBridge, ipcRenderer } = electron;

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !bridgeNamePattern.test(name)) throw new Error(`Not a bridge name: ${String(name)}`);
  return name;
}

const transport: BridgeTransport = {
  invoke: (channel, request) => ipcRenderer.invoke(checkName(channel), request),
  on(event, listener) {
    const forward = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(checkName(event), forward);
    return () => {
      ipcRenderer.removeListener(event, forward);
    };
  },
};

contextBridge.exposeInMainWorld('switchyardBridge', transport);
