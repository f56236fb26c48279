// The team deployment files in deploy/ (decision 017), checked without Docker or systemd running: the compose file
// parsed as compose reads it, the nginx configuration, the Dockerfile and the systemd unit — what matters for two
// instances to act as one gateway, flags that `switchyard serve` really has, and no secret in the repository. The
// container's readiness probe is run for real against a running `switchyard serve`.

import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createProgram } from '../../main/cli/index.js';
import { databaseUrlFrom } from '../../main/store/database-url.js';
import { repoRoot, startServer, type RunningServer } from '../support/cli.js';

const deployDir = path.join(repoRoot, 'deploy');
const read = (name: string) => fs.readFileSync(path.join(deployDir, name), 'utf8');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string | string[];
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const instances = ['switchyard-a', 'switchyard-b'] as const;
const instance = (name: string) => compose.services[name]!;

/** The value after `flag` in an argument list. */
function argument(args: readonly string[], flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index === -1 ? undefined : args[index + 1];
}

/** The long options `switchyard serve` accepts, from the real command. */
function serveOptions(): Set<string> {
  const serve = createProgram().commands.find((command: Command) => command.name() === 'serve')!;
  return new Set(serve.options.map((option) => option.long!));
}

/** `[Section]` → key → values (a key may repeat), as systemd reads a unit file. */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const line of text.split('\n').map((raw) => raw.trim())) {
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1]!, current);
      continue;
    }
    const [key, ...value] = line.split('=');
    current!.set(key!.trim(), [...(current!.get(key!.trim()) ?? []), value.join('=').trim()]);
  }
  return sections;
}

describe('deploy/docker-compose.yml', () => {
  it('runs PostgreSQL 16 on a named volume with a healthcheck', () => {
    const postgres = compose.services.postgres!;
    expect(postgres.image).toMatch(/^postgres:16(\.|$|-)/);
    expect(postgres.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(compose.volumes).toHaveProperty('postgres-data');
    expect(postgres.healthcheck?.test).toContain('pg_isready');
  });

  it('gives both instances the same database, and that URL is one Switchyard accepts', () => {
    const urls = instances.map((name) => instance(name).environment?.SWITCHYARD_DATABASE_URL);
    expect(urls[0]).toBeDefined();
    expect(urls[1]).toBe(urls[0]);
    const filledIn = urls[0]!.replace(/\$\{POSTGRES_PASSWORD[^}]*\}/, 'example-password');
    const url = new URL(databaseUrlFrom(filledIn, {})!);
    expect(url.hostname).toBe('postgres');
    expect(compose.services).toHaveProperty(url.hostname);
    expect(url.pathname).toBe(`/${compose.services.postgres!.environment!.POSTGRES_DB}`);
    expect(decodeURIComponent(url.username)).toBe(compose.services.postgres!.environment!.POSTGRES_USER);
    expect(compose.services.postgres!.environment!.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
  });

  it('builds both instances from deploy/Dockerfile, each with its own data volume on its --data-dir', () => {
    const volumes = instances.map((name) => {
      const service = instance(name);
      expect(service.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
      const dataDir = argument(service.command!, '--data-dir');
      expect(dataDir).toBeDefined();
      const mounts = (service.volumes ?? []).filter((volume) => volume.split(':')[1] === dataDir);
      expect(mounts).toHaveLength(1);
      const volume = mounts[0]!.split(':')[0]!;
      expect(compose.volumes).toHaveProperty(volume);
      return volume;
    });
    expect(new Set(volumes).size).toBe(instances.length);
  });

  it('serves on all addresses of the container, with flags `switchyard serve` has, and keeps secrets out of it', () => {
    const known = serveOptions();
    for (const name of instances) {
      const command = instance(name).command!;
      expect(command[0]).toBe('serve');
      for (const flag of command.filter((word) => word.startsWith('--'))) expect(known).toContain(flag);
      expect(argument(command, '--host')).toBe('0.0.0.0');
      expect(argument(command, '--port')).toBe('7420');
      // The secret key from an env file only the instances read; the password only through interpolation.
      expect(instance(name).env_file).toBe('switchyard.env');
      expect(Object.keys(instance(name).environment ?? {})).not.toContain('SWITCHYARD_SECRET_KEY');
      expect(instance(name).depends_on?.postgres?.condition).toBe('service_healthy');
    }
    expect(compose.services.postgres!.env_file).toBeUndefined();
    expect(read('docker-compose.yml')).not.toMatch(/SWITCHYARD_SECRET_KEY:|POSTGRES_PASSWORD: [^$]/);
  });

  it('probes each instance on /readyz at the port it serves', () => {
    for (const name of instances) {
      const probe = instance(name).healthcheck!.test.join(' ');
      expect(probe).toContain(`http://127.0.0.1:${argument(instance(name).command!, '--port')}/readyz`);
    }
  });

  it('starts the load balancer once both instances are healthy, with nginx.conf, published on one port', () => {
    const lb = compose.services.lb!;
    expect(lb.image).toMatch(/^nginx:/);
    for (const name of instances) expect(lb.depends_on?.[name]?.condition).toBe('service_healthy');
    expect(lb.volumes).toContain('./nginx.conf:/etc/nginx/conf.d/default.conf:ro');
    expect(lb.ports).toEqual(['7420:80']);
  });
});

describe('deploy/nginx.conf', () => {
  const nginx = read('nginx.conf').replace(/#.*$/gm, '');

  it('balances round robin over both instances at the port they serve', () => {
    const upstream = /upstream switchyard \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    const servers = [...upstream.matchAll(/^\s*server\s+(\S+)/gm)].map((match) => match[1]);
    expect(servers).toEqual(instances.map((name) => `${name}:${argument(instance(name).command!, '--port')}`));
    // No other balancing method: least_conn, ip_hash, hash and random would each replace round robin.
    expect(upstream).not.toMatch(/\b(least_conn|ip_hash|hash|random)\b/);
    expect(nginx).toMatch(/listen 80;/);
  });

  it("keeps one browser's UI bridge on one instance by its session cookie, over the same two instances", () => {
    const upstream = /upstream switchyard_ui \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    expect(upstream).toMatch(/hash \$cookie_switchyard_session consistent;/);
    const servers = [...upstream.matchAll(/^\s*server\s+(\S+)/gm)].map((match) => match[1]);
    expect(servers).toEqual(instances.map((name) => `${name}:${argument(instance(name).command!, '--port')}`));
    const bridge = /location \/bridge\/ \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    expect(bridge).toMatch(/proxy_pass http:\/\/switchyard_ui;/);
    expect(bridge).toMatch(/proxy_buffering off;/);
    // The UI answers behind the balancer only for the name people use: serve is told it.
    for (const name of instances) expect(argument(instance(name).command!, '--allowed-host')).toBeTruthy();
  });

  it('passes streams through unbuffered with long read timeouts, and never retries a request already sent', () => {
    expect(nginx).toMatch(/proxy_buffering off;/);
    expect(nginx).toMatch(/proxy_http_version 1\.1;/);
    const readTimeout = /proxy_read_timeout (\d+)s;/.exec(nginx)?.[1];
    expect(Number(readTimeout)).toBeGreaterThanOrEqual(600);
    expect(nginx).not.toMatch(/non_idempotent/);
    // The gateway's own body limit (10 MiB) decides, not nginx's default of 1 MiB.
    expect(nginx).toMatch(/client_max_body_size 10m;/);
    // The browser's Origin is compared with the Host the client sent, port included.
    expect(nginx).toMatch(/proxy_set_header Host \$http_host;/);
  });

  it('passes /healthz and /readyz to the instances', () => {
    for (const probe of ['/healthz', '/readyz']) {
      const location = new RegExp(`location = ${probe} \\{([^}]*)\\}`).exec(nginx)?.[1] ?? '';
      expect(location).toMatch(/proxy_pass http:\/\/switchyard;/);
    }
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('builds with npm install (no test toolkit) on node:24-slim and runs the compiled CLI as an unprivileged user', () => {
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((match) => match[1])).toEqual([
      'node:24-slim',
      'node:24-slim',
    ]);
    // What running needs, not the test toolkit's workspace.
    expect(dockerfile).toMatch(/^RUN npm install [^\n]*--workspaces=false/m);
    expect(dockerfile).toMatch(/npm run build/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "\/app\/bin\/switchyard\.js"\]$/m);
    // The folder the instances mount their volume on exists in the image, owned by that user.
    const dataDir = argument(instance('switchyard-a').command!, '--data-dir')!;
    expect(dockerfile).toContain(`chown node:node ${dataDir}`);
  });

  it('keeps the secrets files out of the build context and out of git', () => {
    expect(read('Dockerfile.dockerignore')).toMatch(/^deploy\/\*\.env$/m);
    expect(read('Dockerfile.dockerignore')).toMatch(/^deploy\/\.env$/m);
    expect(read('.gitignore').split('\n')).toEqual(expect.arrayContaining(['.env', 'switchyard.env']));
    // The examples name the variables and carry no value.
    expect(read('.env.example')).toMatch(/^POSTGRES_PASSWORD=$/m);
    expect(read('switchyard.env.example')).toMatch(/^SWITCHYARD_SECRET_KEY=$/m);
  });
});

describe('deploy/switchyard.service', () => {
  const unit = parseUnit(read('switchyard.service'));
  const service = unit.get('Service')!;
  const value = (key: string) => service.get(key)?.at(-1);

  it('runs as a dedicated user with its settings from an environment file, restarting on failure', () => {
    expect(value('User')).toBe('switchyard');
    expect(value('EnvironmentFile')).toBe('/etc/switchyard/switchyard.env');
    expect(value('Restart')).toBe('on-failure');
    expect(unit.get('Install')?.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('is hardened: no new privileges, a read-only system but for the data folder, a private /tmp', () => {
    expect(value('NoNewPrivileges')).toBe('yes');
    expect(value('ProtectSystem')).toBe('strict');
    expect(value('PrivateTmp')).toBe('yes');
    const execStart = value('ExecStart')!.split(/\s+/);
    const dataDir = argument(execStart, '--data-dir');
    expect(dataDir).toBeDefined();
    expect(value('ReadWritePaths')?.split(/\s+/)).toContain(dataDir);
  });

  it('starts `switchyard serve` with flags it has, and no secret on the command line', () => {
    const execStart = value('ExecStart')!.split(/\s+/);
    expect(execStart.slice(1, 3)).toEqual(['/opt/switchyard/bin/switchyard.js', 'serve']);
    const known = serveOptions();
    for (const flag of execStart.filter((word) => word.startsWith('--'))) expect(known).toContain(flag);
    expect(execStart).not.toContain('--database-url');
  });

  const systemdAnalyze = (() => {
    try {
      execFileSync('systemd-analyze', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!systemdAnalyze)('passes `systemd-analyze verify`', async () => {
    // verify prints problems on stderr and may still exit 0 for some of them: nothing printed is the check.
    const { stdout, stderr } = await promisify(execFile)('systemd-analyze', [
      'verify',
      path.join(deployDir, 'switchyard.service'),
    ]);
    expect(`${stdout}${stderr}`).toBe('');
  });
});

describe('the instances’ readiness probe', () => {
  let dataDir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-deploy-probe-'));
    server = await startServer(['--no-ui', '--data-dir', dataDir]);
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The compose healthcheck's command, pointed at `port`, run as Docker runs it: its exit code. */
  async function probe(port: string): Promise<number> {
    const [kind, program, ...args] = instance('switchyard-a').healthcheck!.test;
    expect([kind, program]).toEqual(['CMD', 'node']);
    const pointed = args.map((word) => word.replace('127.0.0.1:7420', `127.0.0.1:${port}`));
    return promisify(execFile)(process.execPath, pointed).then(
      () => 0,
      (error: { code?: number }) => error.code ?? -1,
    );
  }

  it('succeeds against a ready `switchyard serve` and fails where none answers', async () => {
    expect(await probe(new URL(server.baseUrl).port)).toBe(0);
    expect(await probe('9')).toBe(1);
  });
});
