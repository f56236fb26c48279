// The chat's "always allow" edits the settings through the MCP manager, with its rules: a hand-typed value in
// autoApprove that is not a tool name is dropped instead of being kept, which would make the entry invalid and
// take the server down on the next reload.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, fixtureEntry, silentLogger, startTestManager } from '../mcp/test-support.js';
import { createMcpChatTools } from './chat-tools.js';

const cleanups = cleanupsAfterEach();

describe('the chat’s MCP tools', () => {
  it('"always allow" keeps only tool names in autoApprove and applies the change at once', async () => {
    const { dataDir, manager } = await startTestManager(cleanups, {
      fixture: fixtureEntry([], { autoApprove: ['alpha'] }),
    });
    expect((await manager.waitUntilSettled())[0]?.state).toBe('connected');
    const tools = createMcpChatTools(manager, silentLogger);
    const functionFor = (tool: string) =>
      tools.functionTools().find((fn) => tools.resolve(fn.function.name)?.tool === tool)!.function.name;
    const beta = functionFor('beta');
    expect(tools.resolve(beta)?.autoApproved).toBe(false);

    // Typed by hand while the app runs (with the watcher off, it is not applied yet): a number is no tool name.
    const settingsPath = path.join(dataDir, 'mcp_settings.json');
    await writeFile(
      settingsPath,
      JSON.stringify({ mcpServers: { fixture: fixtureEntry([], { autoApprove: ['alpha', 7] }) } }),
    );

    await tools.allowAlways('fixture', 'beta');

    const written = JSON.parse(await readFile(settingsPath, 'utf8'));
    expect(written.mcpServers.fixture.autoApprove).toEqual(['alpha', 'beta']);
    expect(manager.server('fixture')?.state).toBe('connected');
    expect(manager.problems()).toEqual([]);
    expect(tools.resolve(beta)).toEqual({ server: 'fixture', tool: 'beta', autoApproved: true, hints: {} });
  });
});
