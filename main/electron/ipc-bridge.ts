// The bridge over Electron IPC: one ipcMain.handle per contract channel, answered by the same handlers as
// `switchyard serve`'s HTTP bridge, and every hub event sent to the window on a channel of its own name.

import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { BridgeResult } from '../../shared/bridge/transport.js';
import type { BridgeHandlers } from '../bridge/index.js';

/** Returns the function that unregisters everything. */
export function registerIpcBridge(bridge: BridgeHandlers, window: () => BrowserWindow | undefined): () => void {
  const fromOurWindow = (event: IpcMainInvokeEvent) => event.sender === window()?.webContents;
  for (const channel of bridge.channels) {
    ipcMain.handle(channel, (event, request: unknown): Promise<BridgeResult> | BridgeResult => {
      if (!fromOurWindow(event)) return { ok: false, error: { code: 'forbidden', message: 'Unknown sender.' } };
      return bridge.invoke(channel, request);
    });
  }
  const subscription = bridge.events.subscribe((event) => {
    const target = window();
    if (target && !target.isDestroyed()) target.webContents.send(event.name, event.payload);
  });
  return () => {
    subscription.dispose();
    for (const channel of bridge.channels) ipcMain.removeHandler(channel);
  };
}
