// The desktop shell: one window over the same composition root and bridge handlers as `switchyard serve`.
// Window, security defaults and IPC registration live here; everything else is in main/app and main/bridge.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, session, shell } from 'electron';
import { installLinkHash, installLinkInArgs, installLinkScheme } from '../../shared/mcp/install-link.js';
import { createApp, type App } from '../app/index.js';
import { createBridgeHandlers, uiContentSecurityPolicy, type BridgeHandlers } from '../bridge/index.js';
import { defaultPort } from '../common/index.js';
import type { Gateway } from '../gateway/index.js';
import { registerIpcBridge } from './ipc-bridge.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, '../../preload/index.cjs');
const rendererIndex = path.join(here, '../../renderer/index.html');

let core: App | undefined;
let gateway: Gateway | undefined;
let gatewayUrl: string | null = null;
let bridge: BridgeHandlers | undefined;
let unregisterIpc: (() => void) | undefined;
let window: BrowserWindow | undefined;
/** An install link that arrived before the window (the link that launched the app). */
let pendingLink: string | undefined = installLinkInArgs(process.argv);

/** What the UI may use: writing to the clipboard (its copy buttons). Camera, notifications… are refused. */
const grantedPermissions: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

function openExternally(url: string): void {
  if (/^https?:/.test(url)) void shell.openExternal(url);
}

function createWindow(): BrowserWindow {
  const created = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 640,
    minHeight: 480,
    title: 'Switchyard',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  // Links leave the app for the system browser; the window itself never navigates away.
  created.webContents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
  // The target is read from the event: Electron deprecates the positional url argument.
  created.webContents.on('will-navigate', (event) => {
    if (event.url !== created.webContents.getURL()) {
      event.preventDefault();
      openExternally(event.url);
    }
  });
  created.on('closed', () => {
    if (window === created) window = undefined;
  });
  void created.loadFile(rendererIndex);
  return created;
}

/** Opens an install link's confirmation (the MCP screen reads it; nothing is installed before the person confirms). */
function openInstallLink(link: string): void {
  if (!window) {
    pendingLink = link;
    return;
  }
  void window.loadFile(rendererIndex, { hash: installLinkHash(link) });
  if (window.isMinimized()) window.restore();
  window.focus();
}

/** `switchyard://` opens this app; run from source, the OS must be told to start Electron with the entry script. */
function registerLinkScheme(): void {
  const scheme = installLinkScheme.replace(/:$/, '');
  if (process.defaultApp && process.argv[1]) {
    app.setAsDefaultProtocolClient(scheme, process.execPath, [path.resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(scheme);
  }
}

/** The usual port, or any free one when `switchyard serve` already has it. */
async function listen(started: Gateway): Promise<string | null> {
  try {
    return await started.listen({ host: '127.0.0.1', port: defaultPort });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return started.listen({ host: '127.0.0.1', port: 0 });
  }
}

async function start(): Promise<void> {
  await app.whenReady();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [uiContentSecurityPolicy] } });
  });
  // Requests and checks get the same answer: without a check handler, Electron reports every permission as granted
  // to navigator.permissions.query and to the checks Chromium makes without asking.
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(grantedPermissions.has(permission)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => grantedPermissions.has(permission));

  core = createApp({ dataDir: app.getPath('userData') });
  gateway = core.createGateway();
  gatewayUrl = await listen(gateway).catch((error: unknown) => {
    core?.logger.error({ err: error }, 'the gateway could not start; the app runs without it');
    return null;
  });
  await core.mcp.start();
  bridge = createBridgeHandlers(core, { appInfo: () => ({ version: app.getVersion(), gatewayUrl }) });
  unregisterIpc = registerIpcBridge(bridge, () => window);
  window = createWindow();
  if (pendingLink) openInstallLink(pendingLink);
  pendingLink = undefined;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerLinkScheme();
  // macOS hands links to the running app; Windows and Linux start a second instance with the link in its arguments.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openInstallLink(url);
  });
  app.on('second-instance', (_event, argv) => {
    const link = installLinkInArgs(argv);
    if (link) {
      openInstallLink(link);
      return;
    }
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  app.on('window-all-closed', () => app.quit());
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing || !core) return;
    closing = true;
    event.preventDefault();
    unregisterIpc?.();
    bridge?.dispose();
    void core.close().finally(() => app.exit(0));
  });
  start().catch((error: unknown) => {
    console.error('Switchyard failed to start:', error);
    app.exit(1);
  });
}
