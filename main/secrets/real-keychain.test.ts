// The keychain store against a real Secret Service: a private D-Bus session bus (dbus-run-session) with
// gnome-keyring on it, unlocked with a throwaway password, in a child process with its own HOME so that the
// developer's own keyring is never touched. When the child exits, dbus-run-session ends the bus and the keyring
// daemon exits with it; the test checks that nothing it started is left running.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const requiredTools = ['dbus-run-session', 'gnome-keyring-daemon'];
const missingTools = requiredTools.filter((tool) => !onPath(tool));
// Developers without the tools may skip; CI must have them, so there the test runs and fails instead.
const skip = missingTools.length > 0 && !process.env.CI;

// Unlocks (creating it on first use) the login keyring of the fresh HOME, then becomes the test script.
const sessionScript =
  'echo -n throwaway | gnome-keyring-daemon --unlock --components=secrets >/dev/null ' +
  '|| { echo "gnome-keyring-daemon --unlock failed" >&2; exit 97; }; exec "$0" "$@"';

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

let sandbox: string | undefined;
const marker = randomUUID();

afterAll(async () => {
  // Only processes carrying this run's marker, which this test started.
  for (const pid of await processesWithMarker(marker)) process.kill(pid, 'SIGKILL');
  if (sandbox) await rm(sandbox, { recursive: true, force: true });
});

describe.skipIf(skip)('the keychain store against a real Secret Service', () => {
  it('sets, gets and deletes in gnome-keyring and writes nothing to the data dir', { timeout: 90_000 }, async () => {
    expect(missingTools, `install ${missingTools.join(' and ')} (Debian: dbus, gnome-keyring)`).toEqual([]);

    sandbox = await mkdtemp(path.join(os.tmpdir(), 'switchyard-keychain-'));
    const home = path.join(sandbox, 'home');
    const runtimeDir = path.join(sandbox, 'run');
    const dataDir = path.join(sandbox, 'data');
    await mkdir(home, { mode: 0o700 });
    await mkdir(runtimeDir, { mode: 0o700 });
    await mkdir(dataDir, { mode: 0o700 });
    const scriptPath = path.join(sandbox, 'keychain-child.mts');
    await writeFile(scriptPath, childScript(path.join(repoRoot, 'main/secrets/index.ts')));

    const secret = `sk-keychain-test-${randomUUID()}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      XDG_DATA_HOME: path.join(home, '.local/share'),
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_RUNTIME_DIR: runtimeDir,
      SWITCHYARD_KEYCHAIN_TEST_MARKER: marker,
    };
    for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'GNOME_KEYRING_CONTROL', 'SWITCHYARD_SECRET_STORE', 'DISPLAY']) {
      delete env[name];
    }
    // Node running tsx's CLI by path, rather than `npx tsx`: no dependence on npm, the fake HOME or exec bits.
    const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
    const run = await runChild(
      'dbus-run-session',
      ['--', 'bash', '-c', sessionScript, process.execPath, tsxCli, scriptPath, dataDir, secret],
      { env, cwd: repoRoot, timeoutMs: 60_000 },
    );
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
    for (const file of await filesUnder(sandbox)) {
      if (file !== scriptPath) expect(await readFile(file, 'latin1'), file).not.toContain(secret);
    }

    // The bus is gone, so the keyring daemon must exit too; give it a moment.
    let leftovers = await processesWithMarker(marker);
    for (let attempt = 0; leftovers.length > 0 && attempt < 50; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      leftovers = await processesWithMarker(marker);
    }
    expect(leftovers, 'processes left running by the keychain session').toEqual([]);
  });
});

function onPath(tool: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runChild(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number },
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Live (not zombie) processes whose environment carries the marker: everything the child session started. */
async function processesWithMarker(value: string): Promise<number[]> {
  const needle = `SWITCHYARD_KEYCHAIN_TEST_MARKER=${value}`;
  const found: number[] = [];
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = await readFile(`/proc/${name}/stat`, 'utf8');
      if (status.slice(status.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const environ = await readFile(`/proc/${name}/environ`, 'utf8');
      if (environ.split('\0').includes(needle)) found.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}
