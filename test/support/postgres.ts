// A real, throwaway PostgreSQL server for tests: Debian's `postgresql` package (`npm run setup -- --test` installs
// it), a fresh cluster in a temporary folder on a free port of 127.0.0.1, removed again by stop(). The server
// refuses to run as root, so under root it runs as the package's `postgres` user (node sets the uid and drops
// root's groups before exec, as runuser would, and the pid we hold is the server's own, so stopping it needs no
// helper). Password authentication over TCP only: the socket lives in the cluster's folder, and nobody else on
// the machine can reach the cluster without the password.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { waitFor } from './wait-for.js';

export interface TestPostgres {
  /** `postgres://switchyard:…@127.0.0.1:PORT/postgres`: the cluster's superuser on its default database. */
  readonly url: string;
  /** The cluster's folder (data, socket, log); stop() removes it. */
  readonly folder: string;
  /** Creates an empty database (a fresh one per test keeps tests apart) and answers its URL. */
  createDatabase(): Promise<string>;
  /**
   * Stops the server, then removes the cluster's folder. Safe to call twice. Connections still open after a few
   * seconds (a test that did not end its pool) are ended by the server.
   */
  stop(): Promise<void>;
}

const debianPostgresRoot = '/usr/lib/postgresql';
const superuser = 'switchyard';
const notInstalled = 'PostgreSQL is not installed: `npm run setup -- --test` installs it (Debian package postgresql).';

/** The newest installed server's bin folder (`/usr/lib/postgresql/15/bin`). */
function serverBinDir(): string {
  const versions = fs.existsSync(debianPostgresRoot)
    ? fs
        .readdirSync(debianPostgresRoot)
        .filter((name) => /^\d+$/.test(name) && fs.existsSync(path.join(debianPostgresRoot, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(notInstalled);
  return path.join(debianPostgresRoot, versions[0]!, 'bin');
}

interface ServerUser {
  uid: number;
  gid: number;
}

/** Whom the server runs as: ourselves, or the `postgres` user when we are root. */
function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(`${notInstalled} (its "postgres" user is missing; the server will not run as root)`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function run(file: string, args: string[], user: ServerUser | undefined): void {
  try {
    execFileSync(file, args, { ...user, stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`${path.basename(file)} failed: ${stderr || (error as Error).message}`, { cause: error });
  }
}

interface RunningServer {
  child: ChildProcess;
  exited: Promise<void>;
  stderr: () => string;
}

function startServer(binDir: string, dataDir: string, port: number, user: ServerUser | undefined): RunningServer {
  // A throwaway cluster: durability costs time and buys nothing here.
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dataDir,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
  };
  const args = ['-D', dataDir, '-p', String(port)];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  const child = spawn(path.join(binDir, 'postgres'), args, {
    ...user,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, stderr: () => stderr };
}

async function acceptsConnections(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs `work` on a connection of its own to `url`, ended afterwards whatever happens. */
export async function withPostgresClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  const binDir = serverBinDir();
  const user = serverUser();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-pg-'));
  const removeFolder = () => fs.rmSync(folder, { recursive: true, force: true });
  let server: RunningServer | undefined;
  // A test run that dies before stop() still leaves no server and no folder behind.
  const onExit = () => {
    server?.child.kill('SIGKILL');
    removeFolder();
  };
  process.once('exit', onExit);
  try {
    if (user) fs.chownSync(folder, user.uid, user.gid);
    const dataDir = path.join(folder, 'data');
    const password = randomBytes(18).toString('base64url');
    const passwordFile = path.join(folder, 'password');
    fs.writeFileSync(passwordFile, password, { mode: 0o600 });
    if (user) fs.chownSync(passwordFile, user.uid, user.gid);
    run(
      path.join(binDir, 'initdb'),
      ['-D', dataDir, '-U', superuser, `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-sync'],
      user,
    );
    fs.rmSync(passwordFile);

    // Another process may take the free port between the probe and the server's bind: then try another.
    let url = '';
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      url = `postgres://${superuser}:${password}@127.0.0.1:${port}/postgres`;
      const started = startServer(binDir, dataDir, port, user);
      server = started;
      let exited = false;
      void started.exited.then(() => (exited = true));
      const ready = await waitFor(async () => exited || (await acceptsConnections(url)), {
        what: 'the test PostgreSQL server to accept connections',
        everyMs: 50,
      });
      if (ready && !exited) break;
      if (attempt === 3 || !/could not bind|address already in use/i.test(started.stderr())) {
        throw new Error(`PostgreSQL did not start: ${started.stderr().trim()}`);
      }
    }

    let databases = 0;
    let stopping: Promise<void> | undefined;
    return {
      url,
      folder,
      async createDatabase() {
        const name = `test_${process.pid}_${++databases}`;
        await withPostgresClient(url, async (client) => {
          await client.query(`CREATE DATABASE ${name}`);
        });
        const databaseUrl = new URL(url);
        databaseUrl.pathname = `/${name}`;
        return databaseUrl.toString();
      },
      stop() {
        stopping ??= (async () => {
          const running = server!;
          const exitedWithin = (ms: number) =>
            Promise.race([
              running.exited.then(() => true),
              new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
            ]);
          // SIGTERM (smart shutdown) waits for the clients to leave: a pool's end() resolves before its sockets
          // close, and a fast shutdown would send those closing connections an error their pool did not expect.
          // Then SIGINT (fast: sessions are ended), then SIGKILL.
          running.child.kill('SIGTERM');
          if (!(await exitedWithin(5_000))) {
            running.child.kill('SIGINT');
            if (!(await exitedWithin(10_000))) {
              running.child.kill('SIGKILL');
              await running.exited;
            }
          }
          removeFolder();
          process.removeListener('exit', onExit);
        })();
        return stopping;
      },
    };
  } catch (error) {
    onExit();
    process.removeListener('exit', onExit);
    throw error;
  }
}
