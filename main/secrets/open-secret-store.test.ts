import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeKeytar } from '../../test/support/fake-keytar.js';
import { openSecretStore, selectSecretStore } from './open-secret-store.js';

let dataDir: string;
let savedMode: string | undefined;

beforeEach(async () => {
  dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'switchyard-open-secrets-')), 'data');
  savedMode = process.env.SWITCHYARD_SECRET_STORE;
  delete process.env.SWITCHYARD_SECRET_STORE;
});

afterEach(async () => {
  if (savedMode === undefined) delete process.env.SWITCHYARD_SECRET_STORE;
  else process.env.SWITCHYARD_SECRET_STORE = savedMode;
  await rm(path.dirname(dataDir), { recursive: true, force: true });
});

const failingLoad = () => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file'));

describe('openSecretStore', () => {
  it('opens the file store without a warning when asked for a file', async () => {
    const { store, warning } = await openSecretStore({ dataDir, mode: 'file' });
    expect(store.kind).toBe('file');
    expect(store.location).toBe(path.join(dataDir, 'secrets.json'));
    expect(warning).toBeNull();
  });

  it('reads the mode from SWITCHYARD_SECRET_STORE when the caller gives none', async () => {
    process.env.SWITCHYARD_SECRET_STORE = 'file';
    const { store, warning } = await openSecretStore({ dataDir });
    expect(store.kind).toBe('file');
    expect(warning).toBeNull();

    process.env.SWITCHYARD_SECRET_STORE = 'bogus';
    await expect(openSecretStore({ dataDir })).rejects.toThrow(
      /^Unknown secret store mode "bogus" in SWITCHYARD_SECRET_STORE: use "keychain" or "file"/,
    );
  });

  it('rejects an unknown mode', async () => {
    await expect(openSecretStore({ dataDir, mode: 'bogus' })).rejects.toThrow(
      /^Unknown secret store mode "bogus": use "keychain" or "file"/,
    );
    await expect(openSecretStore({ dataDir, mode: 'Keychain ' })).rejects.toThrow(/Unknown secret store mode/);
  });

  it('falls back to a 0600 file with a one-line warning when D-Bus is unreachable', async () => {
    // keytar (GLib) reads the bus address from the environment when it first connects, so setting it here, before
    // anything in this worker has touched keytar, is honoured; no real bus listens at this path.
    const savedBus = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent';
    try {
      const { store, warning } = await openSecretStore({ dataDir });
      const filePath = path.join(dataDir, 'secrets.json');
      expect(store.kind).toBe('file');
      expect(warning).toMatch(/^No OS keychain reachable \(.+\); provider keys are stored in /);
      expect(warning).toContain(
        `${filePath} (mode 0600). Set SWITCHYARD_SECRET_STORE=keychain to require the keychain.`,
      );
      expect(warning).not.toContain('\n');

      await store.set('provider:openai', 'sk-one');
      expect((await stat(filePath)).mode & 0o777).toBe(0o600);
      expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    } finally {
      if (savedBus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = savedBus;
    }
  });

  it('refuses to fall back when the keychain is required, and says how to fix it', async () => {
    const error = await selectSecretStore({ dataDir, mode: 'keychain' }, failingLoad).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^The OS keychain is required \(secret store mode "keychain"\) but not reachable: /,
    );
    expect((error as Error).message).toContain('libsecret-1.so.0');
    if (process.platform === 'linux') expect((error as Error).message).toMatch(/Secret Service.*gnome-keyring/);
    expect(await readdir(path.dirname(dataDir))).toEqual([]);

    process.env.SWITCHYARD_SECRET_STORE = 'keychain';
    await expect(selectSecretStore({ dataDir }, failingLoad)).rejects.toThrow(
      /^The OS keychain is required \(SWITCHYARD_SECRET_STORE=keychain\)/,
    );
  });
});

describe('selectSecretStore (keychain detection)', () => {
  it('uses the keychain when the probe answers', async () => {
    const keytar = new FakeKeytar();
    const { store, warning } = await selectSecretStore({ dataDir }, async () => keytar);
    expect(store.kind).toBe('keychain');
    expect(warning).toBeNull();
    await store.set('provider:openai', 'sk-one');
    expect(keytar.entries.get('Switchyard/provider:openai')).toBe('sk-one');
    // Nothing on disk: the data dir is not even created.
    expect(await readdir(path.dirname(dataDir))).toEqual([]);
  });

  it('treats a keychain that never answers as unreachable', async () => {
    const keytar = new FakeKeytar();
    keytar.hang = true;
    // The fake never answers: that selection finishes at all is the probe giving up (it says after how long).
    const { store, warning } = await selectSecretStore({ dataDir, probeTimeoutMs: 100 }, async () => keytar);
    expect(store.kind).toBe('file');
    expect(warning).toMatch(/^No OS keychain reachable \(no answer within 100 ms\)/);

    await expect(
      selectSecretStore({ dataDir, mode: 'keychain', probeTimeoutMs: 100 }, async () => keytar),
    ).rejects.toThrow(/no answer within 100 ms/);
  });

  it('treats a keytar that does not load as unreachable', async () => {
    const { store, warning } = await selectSecretStore({ dataDir }, failingLoad);
    expect(store.kind).toBe('file');
    expect(warning).toMatch(/^No OS keychain reachable \(the keytar native module did not load: libsecret-1\.so\.0/);
  });

  it('fixes and reports a secrets file readable by others, on the same line', async () => {
    const filePath = path.join(dataDir, 'secrets.json');
    await mkdir(dataDir, { recursive: true });
    await writeFile(filePath, JSON.stringify({ version: 1, secrets: {} }), { mode: 0o644 });

    const { warning } = await selectSecretStore({ dataDir }, failingLoad);
    expect(warning).toMatch(/^No OS keychain reachable .* was readable by other users \(mode 0644\)/);
    expect(warning).not.toContain('\n');
    expect((await stat(filePath)).mode & 0o777).toBe(0o600);

    await chmod(filePath, 0o640);
    const forced = await openSecretStore({ dataDir, mode: 'file' });
    expect(forced.warning).toMatch(/mode 0640/);
  });

  it('points out keys left in a secrets file when the keychain is used', async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, secrets: {} }), { mode: 0o600 });
    const { store, warning } = await selectSecretStore({ dataDir }, async () => new FakeKeytar());
    expect(store.kind).toBe('keychain');
    expect(warning).toContain(path.join(dataDir, 'secrets.json'));
    expect(warning).not.toContain('\n');
  });
});
