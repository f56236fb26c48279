// Edits of mcp_settings.json while servers run: only what changed is applied, and bad entries or a broken
// file never take the good servers down.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test/support/wait-for.js';
import { isProcessAlive } from './process-tree.js';
import { formatProblem } from './settings-schema.js';
import { toolResultText } from './tool-results.js';
import {
  cleanupsAfterEach,
  createTestManager,
  everythingBin,
  everythingEntry,
  fixtureEntry,
  node,
  startSettledManager,
  tempDataDir,
  writeSettings,
} from './test-support.js';

const cleanups = cleanupsAfterEach();

describe('bad settings entries', () => {
  it('reports every kind of bad entry by path while the good entries start', async () => {
    const { manager } = await startSettledManager(
      cleanups,
      {
        good: everythingEntry({ timeout: 0 }),
        noCommand: { args: ['x'] },
        argsNotStrings: { command: node, args: [everythingBin, 3] },
        argsNotArray: { command: node, args: 'stdio' },
        envNotStrings: { command: node, env: { PORT: 3000 } },
        timeoutText: { command: node, timeout: 'slow' },
        tooLong: everythingEntry({ timeout: 99999 }),
        unknownType: { type: 'websocket', url: 'ws://localhost' },
        badUrl: { type: 'streamableHttp', url: 'not a url' },
        autoApproveNumbers: { command: node, autoApprove: [1] },
        notAnObject: 'node server.js',
      },
      false,
    );
    const problems = manager.problems().map(formatProblem);
    expect(problems).toEqual([
      'mcpServers.good.timeout: 0 is below the minimum of 1 s; using 1',
      'mcpServers.noCommand: needs a command (a local server) or a url (a remote server)',
      'mcpServers.argsNotStrings.args[1]: expected a string, got number 3',
      'mcpServers.argsNotArray.args: expected an array of strings, got "stdio"',
      'mcpServers.envNotStrings.env.PORT: expected a string, got number 3000',
      'mcpServers.timeoutText.timeout: expected a number of seconds, got "slow"',
      'mcpServers.tooLong.timeout: 99999 is above the maximum of 3600 s; using 3600',
      'mcpServers.unknownType.type: expected one of stdio, streamableHttp, sse; got "websocket"',
      'mcpServers.badUrl.url: expected an http(s) URL, got "not a url"',
      'mcpServers.autoApproveNumbers.autoApprove[0]: expected a string, got number 1',
      'mcpServers.notAnObject: expected an object describing the server, got "node server.js"',
    ]);
    const states = Object.fromEntries(manager.list().map((server) => [server.name, server.state]));
    expect(states).toMatchObject({ good: 'connected', tooLong: 'connected', noCommand: 'error', badUrl: 'error' });
    expect(manager.server('argsNotStrings')?.message).toBe(
      'mcpServers.argsNotStrings.args[1]: expected a string, got number 3',
    );
    expect(manager.server('good')?.warning).toContain('using 1');
    const timedOut = await manager.callTool('good', 'trigger-long-running-operation', { duration: 10, steps: 10 });
    expect(toolResultText(timedOut)).toContain('timed out after 1 s');
  });

  it('goes on with no servers when the file is not valid JSON', async () => {
    const { dataDir, manager } = await createTestManager(cleanups);
    await writeFile(
      path.join(dataDir, 'mcp_settings.json'),
      '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n',
    );
    await manager.start();
    expect(manager.list()).toEqual([]);
    expect(manager.problems()).toHaveLength(1);
    expect(formatProblem(manager.problems()[0]!)).toMatch(
      /^mcp_settings\.json: is not valid JSON \(line 3, column 28\)/,
    );
  });

  it('creates the file when there is none', async () => {
    // Watching too: the folder must exist before it can be watched.
    const fresh = path.join(await tempDataDir(cleanups), 'fresh');
    const { dataDir, manager } = await createTestManager(cleanups, { dataDir: fresh, watch: true });
    await manager.start();
    expect(JSON.parse(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8'))).toEqual({ mcpServers: {} });
  });
});

describe('watching the settings file', () => {
  it('applies only what changed', async () => {
    const settings: Record<string, Record<string, unknown>> = {
      a: everythingEntry({ autoApprove: [] }),
      b: everythingEntry(),
    };
    const { dataDir, manager } = await startSettledManager(cleanups, settings, true);
    const pidOf = (name: string) => manager.server(name)?.pid;
    const [pidA, pidB] = [pidOf('a')!, pidOf('b')!];
    expect(manager.toolCatalog().needsApproval('a__echo')).toBe(true);
    const toolEvents: string[] = [];
    manager.onToolsChanged((event) => toolEvents.push(event.server));

    // autoApprove only: nothing restarts, the catalog follows.
    settings.a!.autoApprove = ['echo'];
    await writeSettings(dataDir, settings);
    await waitFor(() => !manager.toolCatalog().needsApproval('a__echo'), { what: 'autoApprove to apply' });
    expect([pidOf('a'), pidOf('b')]).toEqual([pidA, pidB]);
    expect(toolEvents).toEqual(['a']);

    // New args for b: b restarts, a does not.
    settings.b = { command: node, args: [everythingBin] };
    await writeSettings(dataDir, settings);
    const newPidB = await waitFor(
      () => manager.server('b')?.state === 'connected' && pidOf('b') !== pidB && pidOf('b'),
      { what: 'b to restart' },
    );
    expect(pidOf('a')).toBe(pidA);
    expect(isProcessAlive(pidB)).toBe(false);

    // Added: c starts. Removed: a stops.
    await writeSettings(dataDir, { b: settings.b, c: fixtureEntry() });
    await waitFor(() => manager.server('c')?.state === 'connected', { what: 'c to start' });
    await waitFor(() => manager.server('a') === undefined, { what: 'a to be removed' });
    expect(isProcessAlive(pidA)).toBe(false);
    expect(pidOf('b')).toBe(newPidB);

    // A broken save keeps everything running, with the problem reported.
    await writeFile(path.join(dataDir, 'mcp_settings.json'), '{ "mcpServers": ');
    await waitFor(() => manager.problems().length > 0, { what: 'the problem' });
    expect(manager.list().map((server) => [server.name, server.state])).toEqual([
      ['b', 'connected'],
      ['c', 'connected'],
    ]);

    // Disabling stops the server without forgetting it.
    await writeSettings(dataDir, { b: { ...settings.b, disabled: true }, c: fixtureEntry() });
    await waitFor(() => manager.server('b')?.state === 'disabled', { what: 'b to be disabled' });
    expect(isProcessAlive(newPidB)).toBe(false);
    expect(manager.problems()).toEqual([]);
  });
});

describe('tool lists', () => {
  it('follows every page and tools/list_changed', async () => {
    const { manager } = await startSettledManager(cleanups, { fixture: fixtureEntry() }, false);
    expect(manager.listTools('fixture').map((tool) => tool.name)).toEqual([
      'alpha',
      'beta',
      'gamma',
      'delta',
      'add-tool',
    ]);
    const changed = new Promise((resolve) => manager.onToolsChanged(resolve));
    await manager.callTool('fixture', 'add-tool', {});
    await changed;
    expect(manager.listTools('fixture').map((tool) => tool.name)).toContain('added-5');
    expect(manager.toolCatalog().resolve('fixture__added-5')).toMatchObject({ server: 'fixture', tool: 'added-5' });
  });
});
