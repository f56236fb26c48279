// `switchyard mcp …` (main/cli/mcp-commands.ts), run in-process with a fresh program and captured output.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerMcpCommands } from './mcp-commands.js';
import { noApp, runCommands } from './test-support.js';
import { everythingEntry, fixtureEntry, makeTempDir, removeTempDir, writeSettings } from '../mcp/test-support.js';

let dataDir: string;
let out: string[];
let err: string[];

beforeEach(async () => {
  dataDir = await makeTempDir();
  out = [];
  err = [];
});
afterEach(() => removeTempDir(dataDir));

async function run(...args: string[]): Promise<void> {
  const openApp = noApp('the mcp commands need no app');
  await runCommands(registerMcpCommands, { out, err }, openApp, ['mcp', ...args, '--data-dir', dataDir]);
}

describe('switchyard mcp', () => {
  it('list: every server with its status and tool count, and why failed ones failed', async () => {
    await writeSettings(dataDir, {
      everything: everythingEntry(),
      early: fixtureEntry(['--fail-early']),
      off: everythingEntry({ disabled: true }),
      broken: { command: 'node', timeout: 'soon' },
    });
    await run('list');
    const text = out.join('\n');
    expect(text).toMatch(
      /^NAME\s+STATUS\s+TOOLS\s+TRANSPORT\neverything\s+connected\s+1\d\s+stdio\nearly\s+error\s+-\s+stdio\noff\s+disabled\s+-\s+stdio\nbroken\s+error\s+-\s+-\n/,
    );
    expect(text).toContain('early: Exited with code 2 before the MCP handshake.');
    expect(text).toContain('broken: mcpServers.broken.timeout: expected a number of seconds, got "soon"');
  });

  it('list --json, and an empty settings file', async () => {
    await run('list', '--json');
    expect(JSON.parse(out[0]!)).toEqual({ servers: [], problems: [] });
    out.length = 0;
    await run('list');
    expect(out.join('\n')).toMatch(/^No MCP servers in .*mcp_settings\.json/);
  });

  it('tools and call, with exit code 1 for an error result and a clear message for bad --args', async () => {
    await writeSettings(dataDir, { everything: everythingEntry() });
    await run('tools', 'everything');
    expect(out.join('\n')).toMatch(/^NAME\s+DESCRIPTION\n/);
    expect(out.join('\n')).toMatch(/\necho\s+Echoes back the input string\n/);

    out.length = 0;
    await run('call', 'everything', 'get-sum', '--args', '{"a": 2, "b": 3}');
    expect(out).toEqual(['The sum of 2 and 3 is 5.']);

    out.length = 0;
    await expect(run('call', 'everything', 'get-sum', '--args', '{"a": "x"}')).rejects.toThrow(
      'Tool "get-sum" on server "everything" returned an error.',
    );
    expect(out[0]).toMatch(/^Error: /);

    await expect(run('call', 'everything', 'echo', '--args', '{message: hi}')).rejects.toThrow(
      /--args is not valid JSON/,
    );
    await expect(run('tools', 'nope')).rejects.toThrow(/No MCP server "nope" in .*\. Servers there: everything\./);
  });

  it('logs: what the server wrote to stderr from its first line', async () => {
    await writeSettings(dataDir, { early: fixtureEntry(['--fail-early']) });
    await run('logs', 'early');
    expect(out).toEqual(
      expect.arrayContaining([
        'fixture: starting',
        'fatal: FIXTURE_API_KEY is not set',
        '[switchyard] Exited with code 2.',
      ]),
    );
    expect(err.join('\n')).toMatch(/^Server "early" failed: Exited with code 2/);
  });

  it('import: shows what each server runs, and imports a Claude Desktop config only when told to', async () => {
    const file = path.join(dataDir, 'claude_desktop_config.json');
    const fs = { command: 'npx', args: ['-y', 'pkg'], env: { TOKEN: 'secret-value' } };
    await writeFile(file, JSON.stringify({ mcpServers: { fs } }));
    const settingsFile = path.join(dataDir, 'mcp_settings.json');
    const review = [
      'These servers will run on this machine, as you, when Switchyard starts them:',
      '  fs: npx -y pkg',
      '    with TOKEN set',
      '    warning: npx runs the newest published version of pkg each time it starts; pin one you trust (pkg@1.2.3) so that an update cannot change what runs.',
    ].join('\n');

    // Not a terminal, no --yes: it shows, and writes nothing.
    await expect(run('import', file, '--keep-secrets')).rejects.toThrow(/Nothing was imported. Run again with --yes/);
    expect(out.join('\n')).toBe(review);
    expect(out.join('\n')).not.toContain('secret-value');
    expect(JSON.parse(await readFile(settingsFile, 'utf8')).mcpServers).toEqual({});

    out.length = 0;
    await run('import', file, '--yes', '--keep-secrets');
    expect(out.join('\n')).toBe(`${review}\nImported from Claude Desktop file ${file}:\n  added: fs`);
    expect(JSON.parse(await readFile(settingsFile, 'utf8')).mcpServers).toEqual({ fs });

    // A different server of the same name is skipped, and the CLI says how to replace it.
    await writeFile(file, JSON.stringify({ mcpServers: { fs: { ...fs, args: ['-y', 'pkg@2.0.0'] } } }));
    out.length = 0;
    await run('import', file, '--yes', '--keep-secrets');
    expect(out.join('\n')).toContain(
      '\n  skipped fs: a different server with this name exists; rename one, or import with --overwrite to replace it',
    );
  });
});
