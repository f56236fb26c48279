import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isHttpsUrl } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandEnvReferences, expandServerConfig } from './expand-env.js';
import { readSettingsFile, updateSettingsFile } from './settings-file.js';
import { parseEntry } from './settings-schema.js';
import { makeTempDir, removeTempDir } from './test-support.js';

let dataDir: string;
beforeEach(async () => (dataDir = await makeTempDir()));
afterEach(() => removeTempDir(dataDir));

describe('settings file', () => {
  it('keeps fields it does not know through a write, atomically and private', async () => {
    const file = path.join(dataDir, 'mcp_settings.json');
    await writeFile(
      file,
      JSON.stringify({ theme: 'dark', mcpServers: { a: { command: 'x', alwaysAllow: ['t'], disabled: false } } }),
    );
    await updateSettingsFile(dataDir, (raw) => {
      (raw.mcpServers as Record<string, { disabled: boolean }>).a!.disabled = true;
    });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      theme: 'dark',
      mcpServers: { a: { command: 'x', alwaysAllow: ['t'], disabled: true } },
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dataDir)).toEqual(['mcp_settings.json']); // no temp file left behind
  });

  it('refuses to rewrite a file that is not valid JSON', async () => {
    await writeFile(path.join(dataDir, 'mcp_settings.json'), '{ oops');
    await expect(updateSettingsFile(dataDir, () => undefined)).rejects.toThrow(/is not valid JSON.*fix it by hand/);
    expect(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8')).toBe('{ oops');
  });

  it('reads entries in the spec shape with defaults', async () => {
    await writeFile(
      path.join(dataDir, 'mcp_settings.json'),
      JSON.stringify({
        mcpServers: {
          local: {
            command: 'npx',
            args: ['-y', 'pkg'],
            env: { K: 'v' },
            autoApprove: ['t'],
            disabledTools: ['u'],
            timeout: 120,
          },
          remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
          sse: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        },
      }),
    );
    const settings = await readSettingsFile(dataDir);
    expect(settings.problems).toEqual([]);
    expect(settings.entries.map((entry) => entry.config)).toEqual([
      {
        name: 'local',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'pkg'],
        env: { K: 'v' },
        disabled: false,
        autoApprove: ['t'],
        disabledTools: ['u'],
        timeoutSeconds: 120,
      },
      {
        name: 'remote',
        transport: 'streamableHttp',
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer ${env:TOKEN}' },
        sseFallback: true,
        disabled: false,
        autoApprove: [],
        disabledTools: [],
        timeoutSeconds: 60,
      },
      {
        name: 'sse',
        transport: 'sse',
        url: 'http://127.0.0.1:9/sse',
        headers: {},
        sseFallback: false,
        disabled: false,
        autoApprove: [],
        disabledTools: [],
        timeoutSeconds: 60,
      },
    ]);
  });

  it('rejects an entry with both a command and a url, or a type without what it needs', () => {
    expect(parseEntry('both', { command: 'x', url: 'http://h' }).problems[0]?.message).toMatch(
      /both a command and a url/,
    );
    expect(parseEntry('s', { type: 'stdio', url: 'http://h' }).problems[0]).toMatchObject({
      path: 'mcpServers.s.command',
      message: 'required for a stdio server',
    });
    expect(parseEntry('r', { type: 'sse', command: 'x' }).problems[0]).toMatchObject({ path: 'mcpServers.r.url' });
  });

  it("accepts exactly the client ID metadata URLs the SDK's sign-in accepts", () => {
    const urls = [
      'https://app.example/client.json',
      'https://app.example/',
      'https://app.example',
      'http://app.example/c',
      'not a url',
      '',
    ];
    for (const url of urls) {
      const entry = parseEntry('remote', { url: 'https://mcp.example/mcp', oauth: { clientMetadataUrl: url } });
      expect({ url, accepted: entry.config !== undefined }).toEqual({ url, accepted: isHttpsUrl(url) });
    }
    expect(urls.filter(isHttpsUrl)).toEqual(['https://app.example/client.json']);
  });

  it('takes the id of an OAuth client registered by hand beside the metadata URL, and refuses an empty one', () => {
    const oauth = { clientMetadataUrl: 'https://app.example/client.json', clientId: 'switchyard-desktop' };
    expect(parseEntry('remote', { url: 'https://mcp.example/mcp', oauth }).config).toMatchObject({ oauth });
    expect(parseEntry('remote', { url: 'https://mcp.example/mcp', oauth: { clientId: '' } }).problems).toEqual([
      expect.objectContaining({ path: 'mcpServers.remote.oauth.clientId', message: 'must not be empty' }),
    ]);
  });
});

describe('${env:VAR} expansion', () => {
  it('expands every reference and reports the missing ones', () => {
    expect(expandEnvReferences('${env:A}-${env:B}-${env:A}', { A: '1' })).toEqual({ value: '1--1', missing: ['B'] });
    const entry = parseEntry('s', {
      command: '${env:HOME_BIN}/server',
      args: ['--token', '${env:TOKEN}'],
      env: { KEY: '${env:TOKEN}' },
      cwd: '${env:WORK}',
    }).config!;
    const expanded = expandServerConfig(entry, { HOME_BIN: '/opt/bin', TOKEN: 't0k', WORK: '/w' });
    expect(expanded.missing).toEqual([]);
    expect(expanded.value).toMatchObject({
      command: '/opt/bin/server',
      args: ['--token', 't0k'],
      env: { KEY: 't0k' },
      cwd: '/w',
    });
    // The config itself, and so the file, keeps the references.
    expect(entry).toMatchObject({ args: ['--token', '${env:TOKEN}'] });
  });
});
