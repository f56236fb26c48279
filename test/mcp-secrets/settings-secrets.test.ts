// `${secret:NAME}` in mcp_settings.json, through the app as it runs (`switchyard serve`, the desktop app) with the
// secret store it uses where no keychain answers (the 0600 file): a real server started with the value, the form's
// secrets saved through the bridge and never given back, a missing or badly named secret refused by name, and the
// secrets of a removed server deleted. The keychain itself: keychain-secrets.test.ts.

import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../main/app/index.js';
import { createBridgeHandlers } from '../../main/bridge/create-bridge-handlers.js';
import { cleanupsAfterEach, everythingEntry, tempDataDir, type Cleanups } from '../../main/mcp/test-support.js';
import type { McpSettingsDocument } from '../../shared/bridge/types.js';

const cleanups = cleanupsAfterEach();

async function startApp(cleanups: Cleanups) {
  const dataDir = await tempDataDir(cleanups);
  const app = createApp({ dataDir, logger: pino({ level: 'silent' }), secretStoreMode: 'file', localProviders: false });
  cleanups.push(() => app.close());
  await app.mcp.start();
  const bridge = createBridgeHandlers(app, { appInfo: () => ({ version: 'test', gatewayUrl: null }) });
  cleanups.push(async () => bridge.dispose());
  const invoke = async <T>(channel: string, request: unknown = {}) => {
    const result = await bridge.invoke(channel, request);
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value as T;
  };
  return { dataDir, app, bridge, invoke };
}

async function envOf(app: ReturnType<typeof createApp>, server: string): Promise<Record<string, string>> {
  const result = await app.mcp.callTool(server, 'get-env');
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  return JSON.parse(text) as Record<string, string>;
}

/** The data dir's files (the settings, the database and its -wal, the secrets file) that hold `value`. */
async function filesHolding(dataDir: string, value: string): Promise<string[]> {
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const holding: string[] = [];
  for (const file of files) if ((await readFile(file, 'latin1')).includes(value)) holding.push(path.basename(file));
  return holding;
}

describe('${secret:NAME} in mcp_settings.json, with the file store', () => {
  it('starts a server with the stored value in its env, and the file keeps the reference', async () => {
    const { dataDir, app, invoke } = await startApp(cleanups);
    const token = 'tok-secret-value-1234abcd';
    const reference = await app.mcp.secrets!.store('everything.API_TOKEN', token);
    expect(reference).toBe('${secret:everything.API_TOKEN}');
    await invoke('mcp:set-server', {
      name: 'everything',
      entry: everythingEntry({ env: { API_TOKEN: reference, PLAIN: 'x-${secret:everything.API_TOKEN}-y' } }),
    });
    await app.mcp.waitUntilSettled();
    expect(app.mcp.server('everything')?.state).toBe('connected');
    const env = await envOf(app, 'everything');
    expect(env.API_TOKEN).toBe(token);
    expect(env.PLAIN).toBe(`x-${token}-y`);
    expect(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8')).toContain('${secret:everything.API_TOKEN}');
    // Only the secret store's own 0600 file holds it.
    expect(await filesHolding(dataDir, token)).toEqual(['secrets.json']);
    expect((await stat(path.join(dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600);
  });

  it('saves values the form marked secret to the store, and gives back only their last four characters', async () => {
    const { dataDir, app, invoke } = await startApp(cleanups);
    const token = 'ghp-form-secret-9876wxyz';
    const write = await invoke<{ saved: boolean }>('mcp:set-server', {
      name: 'my server',
      entry: everythingEntry({ env: { GITHUB_TOKEN: '', DEBUG: '1' } }),
      secrets: { env: { GITHUB_TOKEN: token } },
    });
    expect(write.saved).toBe(true);
    const settings = JSON.parse(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8'));
    expect(settings.mcpServers['my server'].env).toEqual({
      GITHUB_TOKEN: '${secret:my-server.GITHUB_TOKEN}',
      DEBUG: '1',
    });
    await app.mcp.waitUntilSettled();
    expect((await envOf(app, 'my server')).GITHUB_TOKEN).toBe(token);

    const document = await invoke<McpSettingsDocument>('mcp:get-settings');
    expect(JSON.stringify(document)).not.toContain(token);
    expect(JSON.stringify(document)).not.toContain('wxyz98'); // nothing but the last four
    expect(document.secrets).toEqual([{ name: 'my-server.GITHUB_TOKEN', servers: ['my server'], masked: '••••wxyz' }]);
    expect(await filesHolding(dataDir, token)).toEqual(['secrets.json']);

    // A new value typed over it gets a new name (so the entry changes and the server restarts with it); the old
    // value is gone from every file.
    const next = 'ghp-second-value-0000qrst';
    await invoke('mcp:set-server', {
      name: 'my server',
      previousName: 'my server',
      entry: settings.mcpServers['my server'],
      secrets: { env: { GITHUB_TOKEN: next } },
    });
    await app.mcp.waitUntilSettled();
    expect((await envOf(app, 'my server')).GITHUB_TOKEN).toBe(next);
    expect((await invoke<McpSettingsDocument>('mcp:get-settings')).secrets).toEqual([
      { name: 'my-server.GITHUB_TOKEN-2', servers: ['my server'], masked: '••••qrst' },
    ]);
    expect(await app.mcp.secrets!.read('my-server.GITHUB_TOKEN')).toBeNull();
    expect(await filesHolding(dataDir, token)).toEqual([]);
  });

  it('deletes the secrets of a removed server that no other server references', async () => {
    const { app, invoke } = await startApp(cleanups);
    const shared = await app.mcp.secrets!.store('shared-token', 'shared-value-aaaa1111');
    await invoke('mcp:set-server', {
      name: 'a',
      entry: everythingEntry({ env: { SHARED: shared } }),
      secrets: { env: { OWN_KEY: 'own-value-of-a-bbbb2222' } },
    });
    await invoke('mcp:set-server', { name: 'b', entry: everythingEntry({ env: { SHARED: shared } }) });
    expect(await invoke('mcp:remove-server', { name: 'a' })).toEqual({ removed: true });
    expect(await app.mcp.secrets!.read('a.OWN_KEY')).toBeNull();
    expect(await app.mcp.secrets!.read('shared-token')).toBe('shared-value-aaaa1111');
    expect(await app.mcp.listSecrets()).toEqual([{ name: 'shared-token', servers: ['b'], masked: '••••1111' }]);
  });

  it('does not start a server whose secret is missing or badly named, and says which reference', async () => {
    const { app, invoke } = await startApp(cleanups);
    await invoke('mcp:set-server', { name: 'missing', entry: everythingEntry({ env: { K: '${secret:not-stored}' } }) });
    await invoke('mcp:set-server', { name: 'bad', entry: everythingEntry({ args: ['${secret:../etc passwd}'] }) });
    await app.mcp.waitUntilSettled();
    const missing = app.mcp.server('missing')!;
    expect(missing.state).toBe('error');
    expect(missing.message).toMatch(/^\$\{secret:not-stored\} is not in .*secrets\.json: store it again/);
    const bad = app.mcp.server('bad')!;
    expect(bad.state).toBe('error');
    expect(bad.message).toContain('${secret:../etc passwd}: "../etc passwd" is not a valid secret name');

    await expect(app.mcp.secrets!.store('../etc passwd', 'value')).rejects.toThrow(/not a valid secret name/);
    const refused = await app.mcp.saveServer('c', everythingEntry(), undefined, { env: { 'A B': 'x' } });
    expect(refused.saved).toBe(true); // the variable's name is the entry's business; the secret's name is made valid
    expect(await app.mcp.listSecrets()).toContainEqual({ name: 'c.A-B', servers: ['c'], masked: '••••' });
  });

  it("moves an imported config's secrets into the store, as the import preview's checkbox does by default", async () => {
    const { dataDir, invoke } = await startApp(cleanups);
    const token = 'sk-imported-through-the-screen-abcd';
    const text = JSON.stringify({ mcpServers: { one: everythingEntry({ env: { OPENAI_API_KEY: token } }) } });
    const report = await invoke<{ added: string[]; movedSecrets: unknown[] }>('mcp:import', {
      text,
      fileName: 'mcp.json',
    });
    expect(report).toMatchObject({
      added: ['one'],
      movedSecrets: [{ server: 'one', field: 'env', key: 'OPENAI_API_KEY' }],
    });
    expect(await filesHolding(dataDir, token)).toEqual(['secrets.json']);

    const kept = JSON.stringify({ mcpServers: { two: everythingEntry({ env: { OPENAI_API_KEY: token } }) } });
    await invoke('mcp:import', { text: kept, fileName: 'mcp.json', moveSecrets: false });
    expect((await filesHolding(dataDir, token)).sort()).toEqual(['mcp_settings.json', 'secrets.json']);
  });

  it('keeps a secret in a url out of the log and the failure message', async () => {
    const { app, invoke } = await startApp(cleanups);
    const key = 'url-secret-value-9999zzzz';
    await app.mcp.secrets!.store('remote-key', key);
    // Nothing listens on port 9: the connection is refused, and the failure says where it tried.
    await invoke('mcp:set-server', {
      name: 'remote',
      entry: { url: 'http://127.0.0.1:9/mcp?key=${secret:remote-key}', type: 'streamableHttp' },
    });
    await app.mcp.whenStarted(20_000); // its first attempt failed; the app would try again later
    const server = app.mcp.server('remote')!;
    expect(server.message).toContain('127.0.0.1:9');
    expect(server.message).not.toContain(key);
    const log = app.mcp.logs('remote').join('\n');
    expect(log).toContain('Connecting to http://127.0.0.1:9/mcp?key=${secret:remote-key}');
    expect(log).not.toContain(key);
  });
});
