// `switchyard mcp import FILE` with secrets in the file, run in-process on real files with the secret store that is
// used where no keychain answers (the 0600 file): moved by default (the settings file gets references), kept with
// --keep-secrets, and the two flags refused together. The app's import (the MCP screen's) moves them too.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerMcpCommands } from '../../main/cli/mcp-commands.js';
import { noApp, runCommands } from '../../main/cli/test-support.js';
import { makeTempDir, removeTempDir } from '../../main/mcp/test-support.js';

let dataDir: string;
let out: string[];
let err: string[];
const savedStore = process.env.SWITCHYARD_SECRET_STORE;

const token = 'ghp_importedTokenValue1234';
const bearer = 'Bearer remote-bearer-value-5678';
const claudeConfig = {
  mcpServers: {
    github: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github@2025.4.8'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: token, LOG_LEVEL: 'debug', FROM_ENV_KEY: '${env:MY_KEY}' },
    },
    api: { url: 'https://mcp.example.com/mcp', headers: { Authorization: bearer, Accept: 'application/json' } },
  },
};

beforeEach(async () => {
  dataDir = await makeTempDir();
  process.env.SWITCHYARD_SECRET_STORE = 'file';
  out = [];
  err = [];
  await writeFile(path.join(dataDir, 'claude_desktop_config.json'), JSON.stringify(claudeConfig));
});

afterEach(async () => {
  if (savedStore === undefined) delete process.env.SWITCHYARD_SECRET_STORE;
  else process.env.SWITCHYARD_SECRET_STORE = savedStore;
  await removeTempDir(dataDir);
});

async function importFile(...flags: string[]): Promise<void> {
  const file = path.join(dataDir, 'claude_desktop_config.json');
  const argv = ['mcp', 'import', file, ...flags, '--data-dir', dataDir];
  await runCommands(registerMcpCommands, { out, err }, noApp('mcp import needs no app'), argv);
}

async function settingsServers(): Promise<Record<string, { env?: object; headers?: object }>> {
  return JSON.parse(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8')).mcpServers;
}

/** The files of the data dir, but the config imported from, that hold `value`. */
async function filesHolding(value: string): Promise<string[]> {
  const names = (await readdir(dataDir)).filter((name) => name !== 'claude_desktop_config.json');
  const holding: string[] = [];
  for (const name of names)
    if ((await readFile(path.join(dataDir, name), 'latin1')).includes(value)) holding.push(name);
  return holding;
}

describe('switchyard mcp import with secrets in the file', () => {
  it('moves secret-looking env values and headers into the secret store by default, saying which', async () => {
    await importFile('--yes');
    const text = out.join('\n');
    expect(text).toContain(
      'Secrets found: github: GITHUB_PERSONAL_ACCESS_TOKEN; api: Authorization (header). They move into the ' +
        'secret store, the file gets references.',
    );
    expect(text).toContain(
      `  moved to ${path.join(dataDir, 'secrets.json')}: github: GITHUB_PERSONAL_ACCESS_TOKEN; api: Authorization (header)`,
    );
    expect(text).not.toContain(token);
    const servers = await settingsServers();
    expect(servers.github!.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: '${secret:github.GITHUB_PERSONAL_ACCESS_TOKEN}',
      LOG_LEVEL: 'debug',
      FROM_ENV_KEY: '${env:MY_KEY}',
    });
    expect(servers.api!.headers).toEqual({ Authorization: '${secret:api.Authorization}', Accept: 'application/json' });
    expect(await filesHolding(token)).toEqual(['secrets.json']);
    expect(await filesHolding(bearer)).toEqual(['secrets.json']);
    const stored = JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')).secrets;
    expect(stored).toEqual({ 'mcp/api.Authorization': bearer, 'mcp/github.GITHUB_PERSONAL_ACCESS_TOKEN': token });
  });

  it('keeps them in the file with --keep-secrets, and refuses both flags at once', async () => {
    await expect(importFile('--yes', '--keep-secrets', '--move-secrets')).rejects.toThrow(
      'Choose one of --move-secrets and --keep-secrets.',
    );
    expect(await readdir(dataDir)).toEqual(['claude_desktop_config.json']);
    await importFile('--yes', '--keep-secrets');
    expect(out.join('\n')).not.toContain('Secrets found');
    expect((await settingsServers()).github!.env).toEqual(claudeConfig.mcpServers.github.env);
    expect(await readdir(dataDir)).not.toContain('secrets.json');
  });

  it('replacing a server with --overwrite moves its new secret and deletes the one it replaces', async () => {
    await importFile('--yes');
    const changed = structuredClone(claudeConfig);
    changed.mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN = 'ghp_secondTokenValue0000';
    await writeFile(path.join(dataDir, 'claude_desktop_config.json'), JSON.stringify(changed));
    await importFile('--yes', '--overwrite', '--move-secrets');
    expect((await settingsServers()).github!.env).toMatchObject({
      GITHUB_PERSONAL_ACCESS_TOKEN: '${secret:github.GITHUB_PERSONAL_ACCESS_TOKEN-2}',
    });
    expect(await filesHolding(token)).toEqual([]);
    expect(await filesHolding('ghp_secondTokenValue0000')).toEqual(['secrets.json']);
  });
});
