// `switchyard mcp search` and `switchyard mcp install` as a user runs them, against a local registry that speaks
// the registry's real API with the published example documents (each validated against the published schema): the
// installed server-everything really starts (npx, offline, from this checkout's node_modules) and gets a value with
// shell characters as plain text; a missing uvx, missing required values, a malformed server.json and a script
// without --yes all write nothing; an installed server shows "update available" and `install` again updates it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServerJson, everythingVersion, readFixture } from '../../main/mcp/registry/test-support.js';
import { cliInvocation, runCli } from '../support/cli.js';
import { runPython } from '../support/python.js';
import { nodeOnlyPath, startRegistryServer, type RegistryServerHandle } from '../support/registry-server.js';

let root: string;
let dataDir: string;
let binDir: string;
let registry: RegistryServerHandle;
const everything = 'io.github.modelcontextprotocol/everything';

/**
 * The CLI with a PATH of node, npx and sh only (so uvx is missing wherever the test runs), no login shell to widen it,
 * and npm offline (npx finds server-everything in this checkout's node_modules).
 */
function cli(...args: string[]) {
  return runCli([...args, '--registry', registry.baseUrl, '--data-dir', dataDir], {
    env: { PATH: binDir, SHELL: '', npm_config_offline: 'true', SWITCHYARD_SECRET_STORE: 'file' },
  });
}

function servers(): Record<string, Record<string, unknown>> {
  const file = path.join(dataDir, 'mcp_settings.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: never }).mcpServers : {};
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-registry-e2e-'));
  dataDir = path.join(root, 'data');
  binDir = nodeOnlyPath(path.join(root, 'bin'));
  registry = await startRegistryServer([
    everythingServerJson(),
    readFixture('valid/with-package.json'),
    readFixture('valid/weather-pypi.json'),
    readFixture('valid/with-remote.json'),
    readFixture('valid/minimal.json'),
  ]);
});

afterAll(async () => {
  await registry.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('switchyard mcp search', () => {
  it('lists name, version, how it runs, whether it needs secrets; pages with --cursor; --json for scripts', async () => {
    const first = await cli('mcp', 'search', 'weather', '--limit', '2');
    expect(first.code, first.stderr).toBe(0);
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+VERSION\s+RUNS\s+SECRETS\s+INSTALLED\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(
      /^io\.github\.example\/weather-mcp\s+0\.5\.0\s+uvx\s+needs secrets\s+-\s+Python MCP server for weather data access$/,
    );
    expect(lines[2]).toMatch(/^io\.github\.user\/local-weather\s+1\.0\.0\s+npx\s+needs secrets\s+-\s+Local MCP server/);
    expect(lines).toHaveLength(3);
    expect(first.stderr).toBe('More: switchyard mcp search "weather" --cursor io.github.user/local-weather\n');

    const second = await cli('mcp', 'search', 'weather', '--limit', '2', '--cursor', 'io.github.user/local-weather');
    expect(second.stdout).toMatch(
      /\nio\.github\.user\/remote-weather\s+2\.1\.0\s+remote\s+needs secrets\s+-\s+Remote MCP/,
    );
    expect(second.stdout).toMatch(/\nio\.github\.user\/weather\s+1\.0\.2\s+-\s+-\s+-\s+MCP server providing/);

    const json = await cli('mcp', 'search', 'everything', '--json');
    expect(JSON.parse(json.stdout)).toEqual({
      registry: registry.baseUrl,
      servers: [
        {
          name: everything,
          description: 'MCP server that exercises all the features of the MCP protocol',
          version: everythingVersion,
          runs: ['npx'],
          needsSecrets: false,
        },
      ],
      skipped: [],
    });
  });
});

describe('switchyard mcp install', () => {
  it('installs server-everything pinned, after showing what runs; it starts and gets its value as plain text', async () => {
    const canary = path.join(root, 'pwned');
    const note = `; touch ${canary} $(touch ${canary})`;
    const refused = await cli('mcp', 'install', everything, '--env', `EVERYTHING_NOTE=${note}`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'switchyard: Nothing was installed. Run again with --yes to install it (or answer y when asked, in a terminal).\n',
    );
    expect(servers()).toEqual({});

    const installed = await cli('mcp', 'install', everything, '--env', `EVERYTHING_NOTE=${note}`, '--yes');
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(
      `${everything} ${everythingVersion} will be added as "everything".\n` +
        'It will run on this machine, as you, when Switchyard starts it:\n' +
        `  npx -y @modelcontextprotocol/server-everything@${everythingVersion}\n` +
        '  with EVERYTHING_NOTE set\n' +
        `Installed ${everything} ${everythingVersion} as "everything" in ${path.join(dataDir, 'mcp_settings.json')}.\n`,
    );
    expect(servers().everything).toEqual({
      command: 'npx',
      args: ['-y', `@modelcontextprotocol/server-everything@${everythingVersion}`],
      env: { EVERYTHING_NOTE: note },
      source: { registry: registry.baseUrl, name: everything, version: everythingVersion },
    });

    const called = await runCli(['mcp', 'call', 'everything', 'get-env', '--data-dir', dataDir], {
      env: { PATH: binDir, SHELL: '', npm_config_offline: 'true' },
    });
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).EVERYTHING_NOTE).toBe(note);
    expect(fs.existsSync(canary)).toBe(false);

    const again = await cli('mcp', 'install', everything, '--yes');
    expect(again.stdout).toBe(`${everything} ${everythingVersion} is installed as "everything" and up to date.\n`);
  });

  it('a missing runtime, missing required values and a malformed server.json: a clear error, nothing written', async () => {
    const before = servers();
    const uvx = await cli('mcp', 'install', 'io.github.example/weather-mcp', '--env', 'WEATHER_API_KEY=w', '--yes');
    expect(uvx.code).toBe(1);
    expect(uvx.stderr).toBe(
      `switchyard: uvx is not installed here (not found on the PATH servers start with: ${binDir}). Install uv ` +
        '(uvx comes with it): https://docs.astral.sh/uv/getting-started/installation/, then run the install again. ' +
        'Nothing was written.\n',
    );

    const missing = await cli('mcp', 'install', 'io.github.user/local-weather', '--yes');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'switchyard: Required values are missing, so nothing was written:\n  --env API_KEY=…\n',
    );

    const typo = await cli('mcp', 'install', 'io.github.user/local-weather', '--env', 'APIKEY=x', '--yes');
    expect(typo.stderr).toBe(
      'switchyard: --env APIKEY: io.github.user/local-weather has no such value (it declares: API_KEY).\n',
    );

    registry.publish({
      name: 'io.github.x/broken',
      description: 'x',
      version: '1.0.0',
      packages: [{ registryType: 'npm' }],
    });
    const malformed = await cli('mcp', 'install', 'io.github.x/broken', '--yes');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toBe(
      'switchyard: Registry server "io.github.x/broken": packages[0].identifier: expected a string, got nothing\n',
    );

    const nothing = await cli('mcp', 'install', 'io.github.user/weather', '--yes');
    expect(nothing.stderr).toBe(
      'switchyard: "io.github.user/weather" has nothing Switchyard can install yet (packages: none; remotes: 0).\n',
    );
    expect(servers()).toEqual(before);
  });

  it('an argument with shell characters reaches the program as one word, through npx, and runs nothing', async () => {
    const withArgument = everythingServerJson() as { name: string; packages: Record<string, unknown>[] };
    withArgument.name = 'io.github.test/everything-transport';
    withArgument.packages[0]!.packageArguments = [{ type: 'positional', valueHint: 'transport', isRequired: true }];
    registry.publish(withArgument);
    const canary = path.join(root, 'argument-canary');
    const transport = `; touch ${canary}`;
    const installed = await cli('mcp', 'install', withArgument.name, '--arg', `transport=${transport}`, '--yes');
    expect(installed.code, installed.stderr).toBe(0);
    expect(servers()['everything-transport']?.args).toEqual([
      '-y',
      `@modelcontextprotocol/server-everything@${everythingVersion}`,
      transport,
    ]);
    // server-everything takes its first argument as a transport name: it says it does not know this one.
    const logs = await runCli(['mcp', 'logs', 'everything-transport', '--data-dir', dataDir], {
      env: { PATH: binDir, SHELL: '', npm_config_offline: 'true' },
    });
    expect(logs.stdout).toContain(`Unknown transport: ${transport}`);
    expect(fs.existsSync(canary)).toBe(false);
  });

  it('in a terminal it asks for each value, the secret unechoed, then for the confirmation', async () => {
    const invocation = cliInvocation(
      ['mcp', 'install', 'io.github.user/local-weather', '--registry', registry.baseUrl, '--data-dir', dataDir],
      { PATH: `${binDir}${path.delimiter}${process.env.PATH}`, SHELL: '', SWITCHYARD_SECRET_STORE: 'file' },
    );
    // A pseudo-terminal, answered as a person types: each answer once its question is on the screen.
    const driver = `
import json, os, pty, sys
run = json.loads(os.environ['RUN'])
pid, fd = pty.fork()
if pid == 0:
    os.chdir(run['cwd'])
    os.execve(run['command'], [run['command'], *run['args']], run['env'])
seen = b''
def read():
    global seen
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        return False
    seen += chunk
    return bool(chunk)
for question, answer in [(b'config_path', b'/tmp/conf.json'), (b'API_KEY', b'sk-typed-secret'), (b'[y/N]', b'y')]:
    while question not in seen and read():
        pass
    os.write(fd, answer + b'\\r')
while read():
    pass
sys.stdout.write(seen.decode())
`;
    const result = await runPython(driver, { RUN: JSON.stringify(invocation) });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('config_path (optional): ');
    expect(result.stdout).toContain('API_KEY (required; secret, not shown): ');
    expect(result.stdout).not.toContain('sk-typed-secret');
    expect(result.stdout).toContain('npx -y @modelcontextprotocol/server-weather@1.0.0 /tmp/conf.json --port 8080');
    expect(result.stdout).toContain('Install it? [y/N] ');
    expect(result.stdout).toContain('Installed io.github.user/local-weather 1.0.0 as "local-weather"');
    expect(servers()['local-weather']).toMatchObject({ env: { API_KEY: '${secret:local-weather.API_KEY}' } });
    expect(fs.readFileSync(path.join(dataDir, 'mcp_settings.json'), 'utf8')).not.toContain('sk-typed-secret');
  });

  it('a value the registry marks secret goes to the secret store, the file holds its reference, the server gets it', async () => {
    const keyed = everythingServerJson() as { name: string; packages: Record<string, unknown>[] };
    keyed.name = 'io.example/everything-with-key';
    keyed.packages[0]!.environmentVariables = [{ name: 'EVERYTHING_KEY', isSecret: true, isRequired: true }];
    registry.publish(keyed);
    const secret = 'sk-registry-secret-9876';

    const installed = await cli('mcp', 'install', keyed.name, '--env', `EVERYTHING_KEY=${secret}`, '--yes');
    expect(installed.code, installed.stderr).toBe(0);
    expect(`${installed.stdout}${installed.stderr}`).not.toContain(secret);
    expect(servers()['everything-with-key']).toMatchObject({
      env: { EVERYTHING_KEY: '${secret:everything-with-key.EVERYTHING_KEY}' },
    });
    // With no keychain here, the file store: the value is in secrets.json alone, under the MCP secrets' account.
    const holding = fs
      .readdirSync(dataDir)
      .filter((file) => fs.readFileSync(path.join(dataDir, file)).includes(secret));
    expect(holding).toEqual(['secrets.json']);
    expect(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).toContain(
      'mcp/everything-with-key.EVERYTHING_KEY',
    );

    const called = await runCli(['mcp', 'call', 'everything-with-key', 'get-env', '--data-dir', dataDir], {
      env: { PATH: binDir, SHELL: '', npm_config_offline: 'true', SWITCHYARD_SECRET_STORE: 'file' },
    });
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).EVERYTHING_KEY).toBe(secret);
  });

  it('a remote server becomes a remote entry with its declared header', async () => {
    const result = await cli(
      'mcp',
      'install',
      'io.github.user/remote-weather@2.1.0',
      '--header',
      'Authorization=Bearer t-1',
      '--arg',
      'host=mcp.example.org',
      '--yes',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('It connects to:\n  https://mcp.example.org/mcp\n  with Authorization set\n');
    expect(servers()['remote-weather']).toEqual({
      type: 'streamableHttp',
      url: 'https://mcp.example.org/mcp',
      headers: { Authorization: '${secret:remote-weather.Authorization}' }, // declared isSecret
      source: {
        registry: registry.baseUrl,
        name: 'io.github.user/remote-weather',
        version: '2.1.0',
        arguments: { host: 'mcp.example.org' },
      },
    });
  });

  it('a newer version in the registry: search says "update available", install shows the change and updates', async () => {
    const next = everythingServerJson(everythingVersion, '2099.1.0') as { packages: Record<string, unknown>[] };
    next.packages[0]!.environmentVariables = [
      { name: 'EVERYTHING_NOTE' },
      { name: 'LOG_LEVEL', description: 'How much it logs', default: 'info' },
    ];
    registry.publish(next);

    const search = await cli('mcp', 'search', 'everything');
    expect(search.stdout).toMatch(
      new RegExp(
        `\\n${everything.replaceAll('.', '\\.')}\\s+2099\\.1\\.0\\s+npx\\s+-\\s+${everythingVersion}, update available\\s`,
      ),
    );

    const update = await cli('mcp', 'install', everything, '--yes');
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toBe(
      `Update "everything" (${everything}):\n` +
        `  version: ${everythingVersion} → 2099.1.0\n` +
        '  adds LOG_LEVEL\n' +
        'It will run on this machine, as you, when Switchyard starts it:\n' +
        `  npx -y @modelcontextprotocol/server-everything@${everythingVersion}\n` +
        '  with EVERYTHING_NOTE, LOG_LEVEL set\n' +
        `Updated "everything" to ${everything} 2099.1.0 in ${path.join(dataDir, 'mcp_settings.json')}.\n`,
    );
    expect(servers().everything).toMatchObject({
      env: { EVERYTHING_NOTE: expect.stringContaining('; touch'), LOG_LEVEL: 'info' },
      source: { version: '2099.1.0' },
    });
  });
});
