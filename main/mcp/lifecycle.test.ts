// How servers start, fail, crash, restart and stop: real processes, and the messages people will read.

import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test/support/wait-for.js';
import type { McpManager, McpManagerOptions } from './mcp-manager.js';
import { isProcessAlive } from './process-tree.js';
import { toolResultText } from './tool-results.js';
import type { ServerSnapshot } from './types.js';
import {
  cleanupsAfterEach,
  descendantsOf,
  everythingBin,
  everythingEntry,
  fixtureEntry,
  node,
  startTestManager,
} from './test-support.js';

const cleanups = cleanupsAfterEach();

async function startManager(
  servers: Record<string, unknown>,
  options: Partial<McpManagerOptions> = {},
): Promise<McpManager> {
  return (await startTestManager(cleanups, servers, options)).manager;
}

async function settledState(manager: McpManager, name: string): Promise<ServerSnapshot> {
  const servers = await manager.waitUntilSettled();
  const server = servers.find((snapshot) => snapshot.name === name);
  if (!server) throw new Error(`no server ${name}`);
  return server;
}

describe('server start-up failures', () => {
  it('reports a missing command as ENOENT with a hint and the PATH searched', async () => {
    const manager = await startManager({ typo: { command: 'switchyard-no-such-command', args: ['x'] } });
    const server = await settledState(manager, 'typo');
    expect(server.state).toBe('error');
    expect(server.message).toContain('Command "switchyard-no-such-command" not found (ENOENT)');
    expect(server.message).toContain('use an absolute path');
    expect(server.message).toContain(`PATH searched: ${process.env.PATH}`);
  });

  it('reports an exit before the handshake with the exit code and the last stderr lines', async () => {
    const manager = await startManager({ early: fixtureEntry(['--fail-early']) });
    const server = await settledState(manager, 'early');
    expect(server.state).toBe('error');
    expect(server.message).toMatch(/^Exited with code 2 before the MCP handshake\./);
    expect(server.message).toContain('fatal: FIXTURE_API_KEY is not set');
  });

  it('names non-protocol text on stdout when a server never answers', async () => {
    const manager = await startManager({ chatty: fixtureEntry(['--noise-only'], { startupTimeout: 1 }) });
    const server = await settledState(manager, 'chatty');
    expect(server.state).toBe('error');
    expect(server.message).toContain('Did not complete the MCP handshake within 1 s.');
    expect(server.message).toContain(
      'It printed non-protocol text on stdout: "Server listening on http://localhost:3000" — MCP servers must write only JSON-RPC messages to stdout and log to stderr.',
    );
  });

  it('keeps a server that prints non-protocol text but works, with a warning', async () => {
    const manager = await startManager({ banner: fixtureEntry(['--noise']) });
    const server = await settledState(manager, 'banner');
    expect(server.state).toBe('connected');
    expect(server.warning).toContain('non-protocol text on stdout: "Server listening on http://localhost:3000"');
    expect(manager.logs('banner')).toContain('[stdout] Server listening on http://localhost:3000');
  });

  it('reports a working directory that does not exist', async () => {
    const manager = await startManager({ nowhere: everythingEntry({ cwd: '/no/such/directory' }) });
    const server = await settledState(manager, 'nowhere');
    expect(server).toMatchObject({ state: 'error', message: expect.stringContaining('"/no/such/directory"') });
  });

  it('does not start a disabled server', async () => {
    const manager = await startManager({ off: everythingEntry({ disabled: true }) });
    const server = await settledState(manager, 'off');
    expect(server).toMatchObject({ state: 'disabled', toolCount: 0 });
    expect(server.pid).toBeUndefined();
    const result = await manager.callTool('off', 'echo', { message: 'x' });
    expect(toolResultText(result)).toBe('Error: server "off" is not connected (disabled)');
  });
});

describe('crashes and restarts', () => {
  it('restarts a server that was killed, and its tools come back', async () => {
    const manager = await startManager(
      { everything: everythingEntry() },
      { restartPolicy: { maxRestarts: 3, initialDelayMs: 100 } },
    );
    const first = await settledState(manager, 'everything');
    expect(first.state).toBe('connected');
    const states: string[] = [];
    manager.onServerStatus((snapshot) => states.push(snapshot.state));

    process.kill(first.pid!, 'SIGKILL');
    const back = await waitFor(
      () => {
        const server = manager.server('everything');
        return server?.state === 'connected' && server.pid !== first.pid && server;
      },
      { what: 'the restarted server' },
    );
    expect(states.slice(0, 3)).toEqual(['disconnected', 'connecting', 'connected']);
    expect(back.toolCount).toBe(first.toolCount);
    expect(manager.logs('everything')).toContain('[switchyard] Was killed by SIGKILL.');
    const echo = await manager.callTool('everything', 'echo', { message: 'back' });
    expect(toolResultText(echo)).toBe('Echo: back');
  });

  it('gives up after repeated crashes with the exit code and stderr in the message', async () => {
    const manager = await startManager(
      { crasher: { command: node, args: ['-e', 'process.stderr.write("boom\\n"); process.exit(3)'] } },
      { restartPolicy: { maxRestarts: 2, initialDelayMs: 50 } },
    );
    const server = await waitFor(() => manager.server('crasher')?.state === 'error' && manager.server('crasher'), {
      what: 'error',
    });
    expect(server.message).toMatch(/^Gave up after 2 restarts\. Exited with code 3 before the MCP handshake\./);
    expect(server.message).toContain('boom');
    const starts = manager.logs('crasher').filter((line) => line.startsWith('[switchyard] Starting:'));
    expect(starts).toHaveLength(3);
  });
});

describe('stopping', () => {
  // `sh -c` stays the parent of node, as npx does, so the real server is a grandchild; and a helper that
  // ignores stdin closing (`sleep`) stands for the grandchildren that outlive a polite stop.
  const wrapped = { command: 'sh', args: ['-c', `sleep 300 & "${node}" "${everythingBin}" stdio; exit $?`] };

  it('kills the whole process tree, grandchildren included', async () => {
    const manager = await startManager({ wrapped });
    const server = await settledState(manager, 'wrapped');
    expect(server.state).toBe('connected');
    const descendants = descendantsOf(server.pid!);
    expect(descendants).toHaveLength(2);

    await manager.stop();
    for (const pid of [server.pid!, ...descendants]) expect(isProcessAlive(pid)).toBe(false);
  });

  it('kills what is left of a server whose direct child died', async () => {
    const manager = await startManager({ wrapped }, { restartPolicy: { maxRestarts: 1, initialDelayMs: 60_000 } });
    const server = await settledState(manager, 'wrapped');
    const descendants = descendantsOf(server.pid!);
    expect(descendants).toHaveLength(2);
    process.kill(server.pid!, 'SIGKILL');
    await waitFor(() => descendants.every((pid) => !isProcessAlive(pid)), {
      what: 'the orphans to be killed',
      timeoutMs: 10_000,
    });
    const crashed = await waitFor(
      () => manager.server('wrapped')?.state === 'disconnected' && manager.server('wrapped'),
      { what: 'disconnected' },
    );
    expect(crashed.message).toMatch(/^Restarting in 30 s \(restart 1 of 1\)\. Was killed by SIGKILL\./);
  });
});
