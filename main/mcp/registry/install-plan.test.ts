// install-plan.ts on the registry's published server.json examples (validated against its published schema): the
// option the rule picks, the values each asks for, and the exact entry those values make, version pinned.

import { describe, expect, it } from 'vitest';
import { parseSettings } from '../settings-schema.js';
import {
  chooseInstallOption,
  installInputs,
  InstallPlanError,
  planInstall,
  serverNeedsSecrets,
  serverRunsWith,
  substitute,
} from './install-plan.js';
import { parseServerJson } from './server-json.js';
import { readFixture } from './test-support.js';

const registry = { registry: 'https://registry.example' };
const fixture = (name: string) => parseServerJson(readFixture(name));

describe('planInstall', () => {
  it('an npm package: npx with the version pinned, the declared argument and environment variable filled', () => {
    const server = fixture('valid/with-package.json');
    const option = chooseInstallOption(server)!;
    expect(option).toEqual({ kind: 'package', index: 0 });
    expect(installInputs(server, option)).toEqual([
      { key: 'config_path', kind: 'arg', required: false, secret: false },
      { key: 'API_KEY', kind: 'env', required: true, secret: true },
    ]);
    const plan = planInstall(server, option, { config_path: '/tmp/weather.json', API_KEY: 'k-1' }, registry);
    expect(plan).toEqual({
      program: 'npx',
      missing: [],
      entry: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-weather@1.0.0', '/tmp/weather.json', '--port', '8080'],
        env: { API_KEY: 'k-1' },
        source: {
          registry: 'https://registry.example',
          name: 'io.github.user/local-weather',
          version: '1.0.0',
          arguments: { config_path: '/tmp/weather.json' },
        },
      },
    });
    // The entry is one our settings accept as it is.
    expect(parseSettings({ mcpServers: { weather: plan.entry } }).problems).toEqual([]);
  });

  it('says which required values are missing, and leaves out optional ones not given', () => {
    const server = fixture('valid/with-package.json');
    const plan = planInstall(server, chooseInstallOption(server)!, {}, registry);
    expect(plan.missing.map((input) => input.key)).toEqual(['API_KEY']);
    expect(plan.entry.args).toEqual(['-y', '@modelcontextprotocol/server-weather@1.0.0', '--port', '8080']);
    expect(plan.entry.env).toBeUndefined();
  });

  it('a PyPI package runs with uvx from the pinned version; defaults apply', () => {
    const server = fixture('valid/weather-pypi.json');
    expect(serverRunsWith(server)).toEqual(['uvx']);
    const plan = planInstall(server, chooseInstallOption(server)!, { WEATHER_API_KEY: 'w-1' }, registry);
    expect(plan.entry).toMatchObject({
      command: 'uvx',
      args: ['--from', 'weather-mcp-server==0.5.0', 'weather-mcp-server'],
      env: { WEATHER_API_KEY: 'w-1', WEATHER_UNITS: 'celsius' },
    });
  });

  it('an OCI image runs with docker: runtime arguments, {curly} variables, env passed by name, image:tag', () => {
    const server = fixture('valid/database-manager-oci.json');
    const option = chooseInstallOption(server)!;
    expect(installInputs(server, option).map((input) => `${input.kind}:${input.key}`)).toEqual([
      'arg:db_type',
      'arg:host',
      'arg:port',
      'arg:database_name',
      'env:DB_USERNAME',
      'env:DB_PASSWORD',
      'env:SSL_MODE',
    ]);
    const values = { db_type: 'postgres', database_name: 'orders', DB_USERNAME: 'me', DB_PASSWORD: 'pw' };
    const plan = planInstall(server, option, values, registry);
    expect(plan.missing).toEqual([]);
    expect(plan.entry.command).toBe('docker');
    expect(plan.entry.args).toEqual([
      ...['run', '-i', '--rm', '--network', 'host', '-e', 'DB_TYPE=postgres'],
      ...['-e', 'DB_USERNAME', '-e', 'DB_PASSWORD', '-e', 'SSL_MODE'],
      ...['example/database-manager-mcp:3.1.0', '--host', 'localhost', 'orders'],
    ]);
    expect(plan.entry.env).toEqual({ DB_USERNAME: 'me', DB_PASSWORD: 'pw', SSL_MODE: 'prefer' });
    // The secret is known as one, and not kept among the arguments' values.
    expect(serverNeedsSecrets(server)).toBe(true);
    expect((plan.entry.source as { arguments: object }).arguments).toEqual({
      db_type: 'postgres',
      database_name: 'orders',
    });
  });

  it('a remote: its URL variable filled (default), its header from the value given', () => {
    const server = fixture('valid/with-remote.json');
    const option = chooseInstallOption(server)!;
    expect(option).toEqual({ kind: 'remote', index: 0 });
    expect(serverRunsWith(server)).toEqual(['remote']);
    const plan = planInstall(server, option, { Authorization: 'Bearer t-1' }, registry);
    expect(plan.program).toBeUndefined();
    expect(plan.entry).toEqual({
      type: 'streamableHttp',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer t-1' },
      source: { registry: 'https://registry.example', name: 'io.github.user/remote-weather', version: '2.1.0' },
    });
    expect(planInstall(server, option, {}, registry).missing.map((input) => input.key)).toEqual(['Authorization']);
  });

  it('values are words, never commands: shell characters and braces in a value stay as they are', () => {
    const server = fixture('valid/database-manager-oci.json');
    const hostile = '; rm -rf ~ {db_type} $(id)';
    const plan = planInstall(
      server,
      chooseInstallOption(server)!,
      { db_type: hostile, database_name: hostile, DB_USERNAME: hostile, DB_PASSWORD: 'pw' },
      registry,
    );
    expect(plan.entry.args).toContain(`DB_TYPE=${hostile}`);
    expect(plan.entry.args).toContain(hostile);
    expect((plan.entry.env as Record<string, string>).DB_USERNAME).toBe(hostile);
  });

  it('refuses a package whose version is not pinned, and a server with nothing it can install', () => {
    const latest = readFixture('invalid/package-version-latest.json');
    const server = parseServerJson(latest);
    expect(() => planInstall(server, chooseInstallOption(server)!, {}, registry)).toThrow(
      new InstallPlanError(
        'Package @modelcontextprotocol/server-weather has no exact version ("latest"); Switchyard installs pinned versions only.',
      ),
    );
    expect(chooseInstallOption(fixture('valid/minimal.json'))).toBeUndefined();
  });
});

describe('substitute', () => {
  it('fills known {names} and leaves unknown ones as written (the schema’s rule)', () => {
    expect(substitute('type=bind,src={source},dst={target}', { source: '/a' })).toBe('type=bind,src=/a,dst={target}');
  });
});

describe('parseServerJson', () => {
  it('names the server and the field of a malformed document', () => {
    expect(() =>
      parseServerJson({ name: 'io.github.x/bad', version: '1.0.0', packages: [{ registryType: 'npm' }] }),
    ).toThrow('Registry server "io.github.x/bad": packages[0].identifier: expected a string, got nothing');
    expect(() => parseServerJson(readFixture('invalid/missing-name.json'))).toThrow(
      'A server in the registry: name: expected a string, got nothing',
    );
  });
});
