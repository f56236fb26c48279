// The desktop shell as far as it can be checked without the Electron binary (which cannot be downloaded here):
// main/electron/main.ts runs for real against stand-ins for Electron's modules, so its window options, navigation
// guards, CSP, permission handlers and IPC registration are the ones the app uses; the BUILT preload (dist/preload/index.cjs) runs in a fresh
// V8 context that, like a sandboxed preload, can require nothing but `electron`, whose contextBridge and ipcRenderer
// stand-ins carry calls to the handlers main registered (payloads structured-cloned, as IPC does). Every bridge
// channel goes through that path to the real handlers, and events come back the same way.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bridgeChannelNames, type BridgeChannel } from '../../shared/bridge/contract.js';
import type { BridgeResult, BridgeTransport } from '../../shared/bridge/transport.js';
import { installLinkHash } from '../../shared/mcp/install-link.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { repoRoot } from '../support/cli.js';
import { waitFor } from '../support/wait-for.js';

type Listener = (...args: unknown[]) => unknown;
type IpcHandler = (event: { sender: unknown }, request: unknown) => unknown;

// What main.ts does with Electron, recorded: one object shared with the module stand-in below.
const electron = vi.hoisted(() => {
  const state = {
    userData: '',
    ipcHandlers: new Map<string, IpcHandler>(),
    appListeners: new Map<string, Listener[]>(),
    windows: [] as {
      options: Record<string, unknown>;
      loadedFile: string | null;
      loadedHash: string | undefined;
      focused: number;
      webContents: { send(channel: string, payload: unknown): void; isDestroyed(): boolean };
      windowOpenHandler: ((details: { url: string }) => { action: string }) | null;
      contentsListeners: Map<string, Listener[]>;
    }[],
    headersHook: null as null | ((details: unknown, callback: (answer: unknown) => void) => void),
    permissionHandler: null as
      null | ((contents: unknown, permission: string, callback: (ok: boolean) => void) => void),
    permissionCheckHandler: null as null | ((contents: unknown, permission: string, origin: string) => boolean),
    openedExternally: [] as string[],
    /** app.setAsDefaultProtocolClient's calls: the schemes the OS is asked to hand to the app. */
    protocolClients: [] as unknown[][],
    /** Where webContents.send delivers: the preload's ipcRenderer stand-in. */
    deliver: (_channel: string, _payload: unknown) => {},
    exitCode: null as number | null,
  };
  class BrowserWindow {
    loadedFile: string | null = null;
    windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
    readonly contentsListeners = new Map<string, Listener[]>();
    readonly webContents = {
      send: (channel: string, payload: unknown) => state.deliver(channel, payload),
      isDestroyed: () => false,
      setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => {
        this.windowOpenHandler = handler;
      },
      on: (name: string, listener: Listener) => {
        this.contentsListeners.set(name, [...(this.contentsListeners.get(name) ?? []), listener]);
      },
      getURL: () => 'file:///app/renderer/index.html',
    };
    constructor(readonly options: Record<string, unknown>) {
      state.windows.push(this);
    }
    loadedHash: string | undefined;
    focused = 0;
    loadFile(file: string, options?: { hash?: string }) {
      this.loadedFile = file;
      this.loadedHash = options?.hash;
      return Promise.resolve();
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {
      this.focused += 1;
    }
    on() {}
    isDestroyed() {
      return false;
    }
  }
  const module = {
    app: {
      whenReady: () => Promise.resolve(),
      getPath: () => state.userData,
      getVersion: () => '0.0.0-test',
      requestSingleInstanceLock: () => true,
      setAsDefaultProtocolClient: (...args: unknown[]) => {
        state.protocolClients.push(args);
        return true;
      },
      quit: () => undefined,
      exit: (code: number) => {
        state.exitCode = code;
      },
      on: (name: string, listener: Listener) => {
        state.appListeners.set(name, [...(state.appListeners.get(name) ?? []), listener]);
      },
    },
    BrowserWindow,
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived: (hook: typeof state.headersHook) => {
            state.headersHook = hook;
          },
        },
        setPermissionRequestHandler: (handler: typeof state.permissionHandler) => {
          state.permissionHandler = handler;
        },
        setPermissionCheckHandler: (handler: typeof state.permissionCheckHandler) => {
          state.permissionCheckHandler = handler;
        },
      },
    },
    shell: {
      openExternal: (url: string) => {
        state.openedExternally.push(url);
        return Promise.resolve();
      },
    },
    ipcMain: {
      handle: (channel: string, handler: IpcHandler) => {
        if (state.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        state.ipcHandlers.set(channel, handler);
      },
      removeHandler: (channel: string) => state.ipcHandlers.delete(channel),
    },
  };
  return { state, module };
});

vi.mock('electron', () => ({ ...electron.module, default: electron.module }));

const { state } = electron;
const builtPreload = path.join(repoRoot, 'dist/preload/index.cjs');
let upstream: FakeUpstream;
let bridge: BridgeTransport;
let exposedNames: string[];
let requiredModules: string[];

/** dist/preload/index.cjs as `npm run build` makes it, built again when older than its source. */
function ensurePreloadBuilt(): void {
  const source = path.join(repoRoot, 'preload/index.cts');
  if (fs.existsSync(builtPreload) && fs.statSync(builtPreload).mtimeMs > fs.statSync(source).mtimeMs) return;
  const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed:\n${build.stdout}\n${build.stderr}`);
}

/** Runs the built preload as a sandboxed renderer would, wired to main's IPC handlers; answers what it exposed. */
function runPreload(sender: unknown): { exposed: Map<string, unknown>; required: string[] } {
  const exposed = new Map<string, unknown>();
  const required: string[] = [];
  const listeners = new Map<string, Set<Listener>>();
  state.deliver = (channel, payload) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: null }, structuredClone(payload));
  };
  const ipcRenderer = {
    async invoke(channel: string, request: unknown) {
      const handler = state.ipcHandlers.get(channel);
      if (!handler) throw new Error(`Error invoking remote method '${channel}': No handler registered`);
      return structuredClone(await handler({ sender }, structuredClone(request)));
    },
    on(channel: string, listener: Listener) {
      listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener));
    },
    removeListener(channel: string, listener: Listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
  const contextBridge = {
    exposeInMainWorld(name: string, api: unknown) {
      exposed.set(name, api);
    },
  };
  const module = { exports: {} };
  const context = vm.createContext({
    module,
    exports: module.exports,
    require(name: string) {
      required.push(name);
      if (name === 'electron') return { contextBridge, ipcRenderer };
      throw new Error(`module not found: ${name} (a sandboxed preload may require only electron)`);
    },
  });
  vm.runInContext(fs.readFileSync(builtPreload, 'utf8'), context, { filename: builtPreload });
  return { exposed, required };
}

beforeAll(async () => {
  ensurePreloadBuilt();
  upstream = await startFakeUpstream({ models: ['echo-1'] });
  state.userData = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-electron-'));
  vi.stubEnv('SWITCHYARD_SECRET_STORE', 'file');
  await import('../../main/electron/main.js');
  const window = await waitFor(() => state.windows[0], { what: 'the window' });
  const { exposed, required } = runPreload(window.webContents);
  exposedNames = [...exposed.keys()];
  requiredModules = required;
  bridge = exposed.get('switchyardBridge') as BridgeTransport;
}, 120_000);

afterAll(async () => {
  // Quitting as Electron would: before-quit, whose listener closes the app and then exits.
  for (const listener of state.appListeners.get('before-quit') ?? []) listener({ preventDefault: () => undefined });
  await waitFor(() => state.exitCode !== null, { what: 'the app to exit' });
  expect(state.ipcHandlers.size).toBe(0);
  vi.unstubAllEnvs();
  await upstream?.close();
  fs.rmSync(state.userData, { recursive: true, force: true });
});

const call = async <T>(channel: BridgeChannel, request: unknown = {}): Promise<T> => {
  const result = (await bridge.invoke(channel, request)) as BridgeResult;
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
};

describe('the desktop window', () => {
  it('keeps the renderer sandboxed and isolated, without Node, and loads the built UI', () => {
    expect(state.windows).toHaveLength(1);
    const { options, loadedFile } = state.windows[0]!;
    expect(options.webPreferences).toEqual({
      preload: expect.stringMatching(/preload[\\/]index\.cjs$/),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(loadedFile).toMatch(/renderer[\\/]index\.html$/);
  });

  it('registers switchyard:// and opens an install link at its confirmation, handed over by macOS or a second instance', () => {
    expect(state.protocolClients.map(([scheme]) => scheme)).toEqual(['switchyard']);
    const window = state.windows[0]!;
    const fromMac = 'switchyard://mcp/install?name=io.github.owner/server';
    let prevented = false;
    for (const listener of state.appListeners.get('open-url') ?? []) {
      listener({ preventDefault: () => (prevented = true) }, fromMac);
    }
    expect(prevented).toBe(true);
    expect(window.loadedFile).toMatch(/index\.html$/);
    expect(window.loadedHash).toBe(installLinkHash(fromMac));
    const fromArgs = 'switchyard://mcp/install?name=tools&config=e30';
    for (const listener of state.appListeners.get('second-instance') ?? []) {
      listener({}, ['/opt/Switchyard/switchyard', '--no-sandbox', fromArgs]);
    }
    expect(window.loadedHash).toBe(installLinkHash(fromArgs));
    expect(window.focused).toBeGreaterThanOrEqual(2);
  });

  it('opens web links in the system browser and never leaves the UI', () => {
    const window = state.windows[0]!;
    state.openedExternally.length = 0;
    for (const url of ['https://example.com/docs', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect(window.windowOpenHandler!({ url }), url).toEqual({ action: 'deny' });
    }
    expect(state.openedExternally).toEqual(['https://example.com/docs']);

    // As Electron 45 emits will-navigate: an event that carries the target (the positional url is deprecated).
    const navigate = (url: string) => {
      let prevented = false;
      const event = { url, isSameDocument: false, isMainFrame: true, preventDefault: () => (prevented = true) };
      for (const listener of window.contentsListeners.get('will-navigate') ?? []) listener(event);
      return prevented;
    };
    state.openedExternally.length = 0;
    expect(navigate('https://example.com/pricing')).toBe(true);
    expect(navigate('file:///app/renderer/other.html')).toBe(true);
    expect(navigate('file:///app/renderer/index.html')).toBe(false);
    expect(state.openedExternally).toEqual(['https://example.com/pricing']);
  });

  it('puts the CSP on every response, and grants no permission but writing to the clipboard', () => {
    let answer: { responseHeaders: Record<string, string[]> } | undefined;
    state.headersHook!({ responseHeaders: { 'content-type': ['text/html'] } }, (given) => {
      answer = given as typeof answer;
    });
    const [policy] = answer!.responseHeaders['Content-Security-Policy']!;
    expect(answer!.responseHeaders['content-type']).toEqual(['text/html']);
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
    const granted = (permission: string) => {
      let ok: boolean | undefined;
      state.permissionHandler!(null, permission, (given) => (ok = given));
      return ok;
    };
    expect(granted('clipboard-sanitized-write')).toBe(true);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      expect(granted(permission), permission).toBe(false);
    }
  });

  it('answers permission checks as it answers requests', () => {
    // Without a check handler Electron answers every check (navigator.permissions.query among them) with "granted".
    const check = state.permissionCheckHandler;
    expect(check, 'a permission check handler').toBeTypeOf('function');
    expect(check!(null, 'clipboard-sanitized-write', 'file:///')).toBe(true);
    for (const permission of [
      'media',
      'hid',
      'serial',
      'usb',
      'notifications',
      'clipboard-read',
      'local-network-access',
    ]) {
      expect(check!(null, permission, 'file:///'), permission).toBe(false);
    }
  });
});

describe('the built preload', () => {
  it('exposes the bridge and nothing else, and needs nothing a sandbox lacks', () => {
    expect(exposedNames).toEqual(['switchyardBridge']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on']);
    expect(requiredModules).toEqual(['electron']);
  });

  it('refuses a name that is not a bridge name before anything reaches main', async () => {
    expect(() => bridge.invoke('../../etc' as BridgeChannel, {})).toThrow(/Not a bridge name/);
    expect(() => bridge.on('__proto__' as never, () => undefined)).toThrow(/Not a bridge name/);
  });

  it('reaches a handler for every channel of the contract, through main’s real IPC registration', async () => {
    expect([...state.ipcHandlers.keys()].sort()).toEqual([...bridgeChannelNames].sort());
    for (const channel of bridgeChannelNames) {
      const result = (await bridge.invoke(channel, {})) as BridgeResult;
      // An answer of the bridge's own shape: the value, or an error the handlers or the contract's checks gave.
      expect(typeof result.ok, channel).toBe('boolean');
      if (!result.ok) {
        expect(['unknown-channel', 'forbidden', 'internal'], `${channel}: ${result.error.message}`).not.toContain(
          result.error.code,
        );
        expect(result.error.message.length, channel).toBeGreaterThan(0);
      }
    }
  });

  it('refuses calls from any other web contents', async () => {
    const handler = state.ipcHandlers.get('app:info')!;
    expect(await handler({ sender: { id: 'another window' } }, {})).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'Unknown sender.' },
    });
  });

  it('carries a whole session: provider, key, usage, and a chat whose events come back to the page', async () => {
    expect(await call<{ version: string }>('app:info')).toMatchObject({ version: '0.0.0-test' });
    await call('providers:add', {
      id: 'fake',
      kind: 'openai',
      baseUrl: upstream.baseUrl,
      apiKey: 'sk-shell-test-1234',
    });
    expect((await call<{ ok: boolean }>('providers:test', { id: 'fake' })).ok).toBe(true);
    const { models } = await call<{ models: { id: string }[] }>('models:list');
    expect(models.map((model) => model.id)).toContain('fake/echo-1');
    const { key } = await call<{ key: { id: string } }>('keys:create', { name: 'from the desktop' });
    await call('keys:update', { id: key.id, name: 'renamed in the desktop' });
    const { keys } = await call<{ keys: { id: string; name: string }[] }>('keys:list');
    expect(keys.find((listed) => listed.id === key.id)?.name).toBe('renamed in the desktop');

    const events: { type: string }[] = [];
    const usageEvents: unknown[] = [];
    const stopChat = bridge.on('chat:event', (event) => events.push(event as { type: string }));
    const stopUsage = bridge.on('usage:recorded', (payload) => usageEvents.push(payload));
    const { conversation } = await call<{ conversation: { id: string } }>('chat:create-conversation', {
      model: 'fake/echo-1',
    });
    await call('chat:send', { conversationId: conversation.id, text: 'Hello from the shell' });
    await waitFor(() => events.some((event) => event.type === 'turn-finish'), { what: 'the end of the turn' });
    expect(events.map((event) => event.type)).toContain('text-delta');
    await waitFor(() => usageEvents.length > 0, { what: 'usage:recorded' });
    const summary = await call<{ total: { requests: number } }>('usage:summary', { by: 'model' });
    expect(summary.total.requests).toBeGreaterThan(0);

    // Unsubscribed: nothing more arrives.
    stopChat();
    stopUsage();
    const seen = events.length;
    await call('chat:send', { conversationId: conversation.id, text: 'Again' });
    await waitFor(
      async () => !(await call<{ running: boolean }>('chat:get-conversation', { id: conversation.id })).running,
      { what: 'the second turn to end' },
    );
    expect(events).toHaveLength(seen);
  });
});
