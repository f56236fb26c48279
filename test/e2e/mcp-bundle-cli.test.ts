// `switchyard mcp install ./server.mcpb` as a user runs it, on a real bundle: server-everything built into one file
// (as bundles ship their servers) and packed by the `mcpb` CLI, then signed by it. The installed server starts from
// the unpacked folder and is called; its sensitive setting is in the secret store and in no other file; bad bundles
// (a malformed manifest, climbing and absolute paths, a huge declared entry, too many entries, not a zip) each get a
// clear error and leave no entry and no files; removing the entry removes its unpacked files.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../main/app/index.js';
import { bundleManifest, declareSize, zipBundle } from '../../main/mcp/bundles/test-support.js';
import { runCli } from '../support/cli.js';
import { bin, packEverythingBundle } from '../support/mcp-bundle.js';
import { nodeOnlyPath } from '../support/registry-server.js';

let root: string;
let dataDir: string;
let binDir: string;
let bundle: string;
let signedBundle: string;
const apiKey = 'sk-bundle-test-0123456789abcdef';

function cli(...args: string[]) {
  return runCli([...args, '--data-dir', dataDir], {
    env: { PATH: binDir, SHELL: '', SWITCHYARD_SECRET_STORE: 'file' },
  });
}

function servers(): Record<string, Record<string, unknown>> {
  const file = path.join(dataDir, 'mcp_settings.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: never }).mcpServers : {};
}

function bundlesFolder(): string[] {
  const folder = path.join(dataDir, 'mcp-bundles');
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
}

function filesHolding(text: string): string[] {
  return fs
    .readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && fs.readFileSync(path.join(entry.parentPath, entry.name)).includes(text))
    .map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)));
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-bundle-e2e-'));
  dataDir = path.join(root, 'data');
  binDir = nodeOnlyPath(path.join(root, 'bin'));
  bundle = packEverythingBundle(root);
  signedBundle = path.join(root, 'signed.mcpb');
  fs.copyFileSync(bundle, signedBundle);
  execFileSync(bin('mcpb'), ['sign', signedBundle, '--self-signed'], { cwd: root, stdio: 'ignore' });
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('switchyard mcp install ./server.mcpb', () => {
  it('shows what the bundle runs, needs its required setting, installs it; the server runs and is called', async () => {
    const refused = await cli('mcp', 'install', bundle, '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'switchyard: Required settings are missing, so nothing was written:\n  --config api_key=… (API key)\n',
    );
    const unconfirmed = await cli('mcp', 'install', bundle, '--config', `api_key=${apiKey}`);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toContain('Nothing was installed. Run again with --yes');
    expect(servers()).toEqual({});
    expect(bundlesFolder()).toEqual([]);

    const installed = await cli('mcp', 'install', bundle, '--config', `api_key=${apiKey}`, '--yes');
    expect(installed.code, installed.stderr).toBe(0);
    const folder = path.join(dataDir, 'mcp-bundles', 'everything-bundle');
    const sha256 = execFileSync('sha256sum', [bundle]).toString().split(' ')[0];
    expect(installed.stdout).toBe(
      `Everything 1.2.3 by Ada (everything.mcpb, sha256 ${sha256!.slice(0, 12)}…)\n` +
        'Not signed.\n' +
        `It will be added as "everything-bundle", unpacked into ${folder}.\n` +
        'It will run on this machine, as you, when Switchyard starts it:\n' +
        `  node ${folder}/server/index.js stdio\n` +
        '  with EVERYTHING_API_KEY, EVERYTHING_MODE set\n' +
        `Installed everything-bundle 1.2.3 as "everything-bundle" in ${path.join(dataDir, 'mcp_settings.json')} ` +
        `(files in ${folder}).\n`,
    );
    expect(servers()['everything-bundle']).toEqual({
      command: 'node',
      args: [`${folder}/server/index.js`, 'stdio'],
      env: { EVERYTHING_API_KEY: '${secret:everything-bundle.api_key}', EVERYTHING_MODE: 'fast' },
      source: {
        bundle: { name: 'everything-bundle', version: '1.2.3', sha256, signed: false, folder: 'everything-bundle' },
      },
    });
    expect(filesHolding(apiKey)).toEqual(['secrets.json']);

    const called = await runCli(['mcp', 'call', 'everything-bundle', 'get-env', '--data-dir', dataDir], {
      env: { PATH: binDir, SHELL: '', SWITCHYARD_SECRET_STORE: 'file' },
    });
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ EVERYTHING_API_KEY: apiKey, EVERYTHING_MODE: 'fast' });
  });

  it('says a signature is present without claiming it is verified; removing the entry removes its files', async () => {
    const installed = await cli('mcp', 'install', signedBundle, '--name', 'signed', '--config', 'api_key=k', '--yes');
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout.split('\n')[1]).toBe('Signature present, not verified.');
    expect(servers().signed?.source).toMatchObject({ bundle: { signed: true, folder: 'signed' } });
    expect(bundlesFolder().sort()).toEqual(['everything-bundle', 'signed']);

    const app = createApp({
      dataDir,
      secretStoreMode: 'file',
      localProviders: false,
      logger: pino({ level: 'silent' }),
    });
    try {
      expect(await app.mcp.removeServer('signed')).toBe(true);
    } finally {
      await app.close();
    }
    expect(Object.keys(servers())).toEqual(['everything-bundle']);
    expect(bundlesFolder()).toEqual(['everything-bundle']);
  });

  it.each([
    [
      'a malformed manifest',
      () => zipBundle({}, bundleManifest({ server: { type: 'node', mcp_config: { args: [] } } })),
      'switchyard: manifest.json is not a valid bundle manifest: server.mcp_config.command: expected a string, got nothing\n',
    ],
    [
      'a climbing path',
      () => zipBundle({ '../../escaped.js': 'x' }),
      'switchyard: "../../escaped.js" in the bundle would be written outside its folder; refused.\n',
    ],
    [
      'an absolute path',
      () => zipBundle({ '/tmp/escaped.js': 'x' }),
      'switchyard: "/tmp/escaped.js" in the bundle would be written outside its folder; refused.\n',
    ],
    [
      'a huge declared entry',
      () => declareSize(zipBundle({ 'huge.bin': 'x' }), 'huge.bin', 0xfffffff0),
      'switchyard: The bundle would unpack to more than 1073741824 bytes (declared by "huge.bin" and the entries ' +
        'before it); refused.\n',
    ],
    [
      'too many entries',
      () => zipBundle(Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`f/${index}`, '']))),
      'switchyard: The bundle has 20001 entries; the limit is 20000.\n',
    ],
    [
      'a file that is not a zip',
      () => new TextEncoder().encode('not a zip'),
      'switchyard: The file is not a bundle: it is not a zip file.\n',
    ],
  ])('refuses %s with a clear error, writing nothing', async (_, build, message) => {
    const before = { servers: servers(), folders: bundlesFolder() };
    const file = path.join(root, 'bad.mcpb');
    fs.writeFileSync(file, build());
    const result = await cli('mcp', 'install', file, '--config', 'api_key=k', '--yes');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(message);
    expect({ servers: servers(), folders: bundlesFolder() }).toEqual(before);
    expect(fs.existsSync(path.join(root, 'escaped.js'))).toBe(false);
  });
});
