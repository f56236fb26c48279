// For tests against a real Secret Service: a private D-Bus session bus (dbus-run-session) with gnome-keyring on it,
// unlocked with a throwaway password, running a script in a child process with its own HOME, so that the
// developer's own keyring is never touched. When the child exits, dbus-run-session ends the bus and the keyring
// daemon exits with it; leftoverProcesses says whether anything the session started is still running.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const requiredTools = ['dbus-run-session', 'gnome-keyring-daemon'];
const missingKeyringTools = requiredTools.filter((tool) => !onPath(tool));
// Developers without the tools may skip; CI must have them, so there the test runs and fails instead.
export const skipWithoutKeyring = missingKeyringTools.length > 0 && !process.env.CI;

// Unlocks (creating it on first use) the login keyring of the fresh HOME, then becomes the test script.
const sessionScript =
  'echo -n throwaway | gnome-keyring-daemon --unlock --components=secrets >/dev/null ' +
  '|| { echo "gnome-keyring-daemon --unlock failed" >&2; exit 97; }; exec "$0" "$@"';

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A sandbox folder with a fresh home and an empty data dir; remove() kills what its sessions left and deletes it. */
export interface KeyringSandbox {
  root: string;
  dataDir: string;
  /** Runs the TypeScript `script` (written to the sandbox) with `args` inside a keyring session, via tsx. */
  run(script: string, args: string[], options?: { env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ChildRun>;
  /** Live processes the sandbox's sessions started that are still running, after a moment's grace. */
  leftoverProcesses(): Promise<number[]>;
  remove(): Promise<void>;
}

/** Throws naming what to install when the machine lacks the tools (skipWithoutKeyring skips instead, off CI). */
export async function createKeyringSandbox(): Promise<KeyringSandbox> {
  if (missingKeyringTools.length > 0) {
    throw new Error(`install ${missingKeyringTools.join(' and ')} (Debian: dbus, gnome-keyring)`);
  }
  const root = await mkdtemp(path.join(os.tmpdir(), 'switchyard-keychain-'));
  const home = path.join(root, 'home');
  const runtimeDir = path.join(root, 'run');
  const dataDir = path.join(root, 'data');
  await mkdir(home, { mode: 0o700 });
  await mkdir(runtimeDir, { mode: 0o700 });
  await mkdir(dataDir, { mode: 0o700 });
  const marker = randomUUID();
  let scripts = 0;
  return {
    root,
    dataDir,
    async run(script, args, options = {}) {
      const scriptPath = path.join(root, `keychain-child-${++scripts}.mts`);
      await writeFile(scriptPath, script);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        HOME: home,
        XDG_DATA_HOME: path.join(home, '.local/share'),
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        XDG_RUNTIME_DIR: runtimeDir,
        SWITCHYARD_KEYCHAIN_TEST_MARKER: marker,
        ...options.env,
      };
      for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'GNOME_KEYRING_CONTROL', 'SWITCHYARD_SECRET_STORE', 'DISPLAY']) {
        if (!options.env?.[name]) delete env[name];
      }
      // Node running tsx's CLI by path, rather than `npx tsx`: no dependence on npm, the fake HOME or exec bits.
      const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
      return runChild(
        'dbus-run-session',
        ['--', 'bash', '-c', sessionScript, process.execPath, tsxCli, scriptPath, ...args],
        { env, cwd: repoRoot, timeoutMs: options.timeoutMs ?? 60_000 },
      );
    },
    async leftoverProcesses() {
      // The bus is gone, so the keyring daemon must exit too; give it a moment.
      let leftovers = await processesWithMarker(marker);
      for (let attempt = 0; leftovers.length > 0 && attempt < 50; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        leftovers = await processesWithMarker(marker);
      }
      return leftovers;
    },
    async remove() {
      // Only processes carrying this sandbox's marker, which its sessions started.
      for (const pid of await processesWithMarker(marker)) process.kill(pid, 'SIGKILL');
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Every file under `dir`, by path. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

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
