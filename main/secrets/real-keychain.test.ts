// The keychain store against a real Secret Service: a private D-Bus session bus with gnome-keyring on it, in a
// child process with its own HOME (keyring-session.ts), so that the developer's own keyring is never touched. The
// test checks that nothing the session started is left running.

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createKeyringSandbox,
  filesUnder,
  repoRoot,
  skipWithoutKeyring,
  type KeyringSandbox,
} from '../../test/support/keyring-session.js';

const childScript = (secretsIndex: string) => `
import { createRequire } from 'node:module';
import { openSecretStore } from ${JSON.stringify(secretsIndex)};

const [dataDir, secret] = process.argv.slice(2);
const keytar = createRequire(${JSON.stringify(path.join(repoRoot, 'package.json'))})('keytar');
const account = 'provider:keychain-test';

const { store, warning } = await openSecretStore({ dataDir, mode: 'keychain' });
await store.set(account, secret);
const cachedRead = await store.get(account);
store.invalidate();
const keychainRead = await store.get(account);
const reopenedRead = await (await openSecretStore({ dataDir, mode: 'keychain' })).store.get(account);
const underServiceSwitchyard = await keytar.getPassword('Switchyard', account);
const deleted = await store.delete(account);
store.invalidate();
const readAfterDelete = await store.get(account);
const directAfterDelete = await keytar.getPassword('Switchyard', account);
console.log(JSON.stringify({ kind: store.kind, location: store.location, warning, cachedRead, keychainRead,
  reopenedRead, underServiceSwitchyard, deleted, readAfterDelete, directAfterDelete }));
`;

let sandbox: KeyringSandbox | undefined;

afterAll(async () => {
  await sandbox?.remove();
});

describe.skipIf(skipWithoutKeyring)('the keychain store against a real Secret Service', () => {
  it('sets, gets and deletes in gnome-keyring and writes nothing to the data dir', { timeout: 90_000 }, async () => {
    sandbox = await createKeyringSandbox();
    const { dataDir } = sandbox;
    const secret = `sk-keychain-test-${randomUUID()}`;
    const run = await sandbox.run(childScript(path.join(repoRoot, 'main/secrets/index.ts')), [dataDir, secret]);
    const context = `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;
    expect(run.code, context).toBe(0);

    const lastLine = run.stdout.trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(lastLine), context).toEqual({
      kind: 'keychain',
      location: 'OS keychain (service "Switchyard")',
      warning: null,
      cachedRead: secret,
      keychainRead: secret,
      reopenedRead: secret,
      underServiceSwitchyard: secret,
      deleted: true,
      readAfterDelete: null,
      directAfterDelete: null,
    });

    // The keychain store writes nothing of its own: the data dir stays empty, and no file in it holds the secret.
    expect(await filesUnder(dataDir)).toEqual([]);
    for (const file of await filesUnder(sandbox.root)) {
      if (!/keychain-child-\d+\.mts$/.test(file)) expect(await readFile(file, 'latin1'), file).not.toContain(secret);
    }
    expect(await sandbox.leftoverProcesses(), 'processes left running by the keychain session').toEqual([]);
  });
});
