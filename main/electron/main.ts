// The desktop shell: one window over the same composition root as `switchyard serve`. Nothing else lives here.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { bridgeChannels, type AppInfo } from '../../shared/bridge.js';
import { createApp, type App } from '../app/index.js';
import { defaultPort } from '../cli/serve-command.js';
import type { Gateway } from '../gateway/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, '../../preload/index.cjs');
const rendererIndex = path.join(here, '../../renderer/index.html');
const contentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'";

let core: App | undefined;
let gateway: Gateway | undefined;
let gatewayUrl: string | null = null;
let window: BrowserWindow | undefined;

function createWindow(): BrowserWindow {
  const created = new BrowserWindow({
    width: 1200,
    height: 800,
    title: 'Switchyard',
    webPreferences: { preload: preloadPath, contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  // Links leave the app for the system browser; the window itself never navigates away.
  created.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:/.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  created.webContents.on('will-navigate', (event, url) => {
    if (url !== created.webContents.getURL()) {
      event.preventDefault();
      if (/^https?:/.test(url)) void shell.openExternal(url);
    }
  });
  void created.loadFile(rendererIndex);
  return created;
}

async function start(): Promise<void> {
  await app.whenReady();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy] } });
  });
  core = createApp({ dataDir: app.getPath('userData') });
  gateway = core.createGateway();
  gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: defaultPort }).catch((error: unknown) => {
    core?.logger.error({ err: error }, 'the gateway could not start; the app runs without it');
    return null;
  });
  await core.mcp.start();
  ipcMain.handle(bridgeChannels.appInfo, (): AppInfo => ({ version: app.getVersion(), gatewayUrl }));
  window = createWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing || !core) return;
    closing = true;
    event.preventDefault();
    void core.close().finally(() => app.exit(0));
  });
  start().catch((error: unknown) => {
    console.error('Switchyard failed to start:', error);
    app.exit(1);
  });
}
