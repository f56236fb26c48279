import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importConfigFile } from './import-config.js';
import { makeTempDir, removeTempDir } from './test-support.js';

let dataDir: string;
let sourceDir: string;
beforeEach(async () => {
  dataDir = await makeTempDir();
  sourceDir = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(dataDir);
  await removeTempDir(sourceDir);
});

async function source(name: string, content: unknown): Promise<string> {
  const file = path.join(sourceDir, name);
  await writeFile(file, JSON.stringify(content, null, 2));
  return file;
}

const ours = async () => JSON.parse(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8'));

describe('importing other apps’ configs', () => {
  it('imports Claude Desktop, Cursor and Cline configs', async () => {
    const claude = await source('claude_desktop_config.json', {
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/ada/Desktop'] },
      },
      globalShortcut: 'Ctrl+Space',
    });
    const cursor = await source('mcp.json', {
      mcpServers: {
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
        memory: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: { MEMORY_FILE_PATH: '/m.json' },
        },
      },
    });
    // Every field Cline writes, each of which our settings also know.
    const github = {
      command: 'node',
      args: ['/srv/github/index.js'],
      env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}' },
      disabled: true,
      autoApprove: ['list_issues'],
      timeout: 120,
      type: 'stdio',
    };
    const cline = await source('cline_mcp_settings.json', { mcpServers: { github } });

    expect(await importConfigFile(dataDir, claude)).toEqual({
      source: 'Claude Desktop',
      added: ['filesystem'],
      replaced: [],
      skipped: [],
    });
    expect((await importConfigFile(dataDir, cursor)).added).toEqual(['remote', 'memory']);
    expect(await importConfigFile(dataDir, cline)).toMatchObject({ source: 'Cline', added: ['github'] });

    const settings = await ours();
    expect(Object.keys(settings.mcpServers)).toEqual(['filesystem', 'remote', 'memory', 'github']);
    expect(settings.mcpServers.github).toEqual(github);
    expect(settings).not.toHaveProperty('globalShortcut'); // other apps' own settings stay theirs
  });

  it('never overwrites a server silently, skips identical ones and invalid ones', async () => {
    await writeFile(
      path.join(dataDir, 'mcp_settings.json'),
      JSON.stringify({ keepMe: true, mcpServers: { same: { command: 'a' }, other: { command: 'mine' } } }),
    );
    const file = await source('claude_desktop_config.json', {
      mcpServers: { same: { command: 'a' }, other: { command: 'theirs' }, broken: { args: ['x'] } },
    });
    const report = await importConfigFile(dataDir, file);
    expect(report.added).toEqual([]);
    expect(report.skipped).toEqual([
      { name: 'same', reason: 'already present, identical' },
      { name: 'other', reason: 'a different server with this name exists', conflict: true },
      {
        name: 'broken',
        reason: 'invalid entry: mcpServers.broken: needs a command (a local server) or a url (a remote server)',
      },
    ]);
    expect((await ours()).mcpServers.other).toEqual({ command: 'mine' });

    expect((await importConfigFile(dataDir, file, { overwrite: true })).replaced).toEqual(['other']);
    expect(await ours()).toEqual({
      keepMe: true,
      mcpServers: { same: { command: 'a' }, other: { command: 'theirs' } },
    });
  });

  it('explains files it cannot use', async () => {
    await expect(importConfigFile(dataDir, path.join(sourceDir, 'missing.json'))).rejects.toThrow(/Cannot read/);
    const notJson = path.join(sourceDir, 'mcp.json');
    await writeFile(notJson, '{ "mcpServers": { ');
    await expect(importConfigFile(dataDir, notJson)).rejects.toThrow(/is not valid JSON/);
    const vscode = await source('settings.json', { servers: {} });
    await expect(importConfigFile(dataDir, vscode)).rejects.toThrow(/no "mcpServers" object/);
  });
});
