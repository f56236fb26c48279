// Tools switched off in the settings (`disabledTools`): the catalog that the chat and the MCP hub offer leaves
// them out, and switching one off or on applies at once, without restarting the server.

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, fixtureEntry, startSettledManager } from './test-support.js';

const cleanups = cleanupsAfterEach();

describe('disabledTools', () => {
  it('keeps switched-off tools out of the catalog, and switching applies without a restart', async () => {
    const { manager } = await startSettledManager(cleanups, {
      fixture: fixtureEntry([], { disabledTools: ['beta'] }),
    });
    const offered = () =>
      manager
        .toolCatalog()
        .entries()
        .map((entry) => entry.tool);
    expect(offered()).toEqual(['add-tool', 'alpha', 'delta', 'gamma']);
    expect(manager.listTools('fixture').map((tool) => tool.name)).toContain('beta');
    const pid = manager.server('fixture')?.pid;
    const changes: string[] = [];
    const subscription = manager.onToolsChanged(({ server }) => changes.push(server));

    expect(await manager.setToolDisabled('fixture', 'alpha', true)).toEqual(['beta', 'alpha']);
    expect(offered()).toEqual(['add-tool', 'delta', 'gamma']);
    expect(await manager.setToolDisabled('fixture', 'beta', false)).toEqual(['alpha']);
    expect(offered()).toEqual(['add-tool', 'beta', 'delta', 'gamma']);
    subscription.dispose();

    expect(changes).toEqual(['fixture', 'fixture']);
    expect(manager.server('fixture')?.pid).toBe(pid);
    const onDisk = JSON.parse(await readFile(manager.settingsPath, 'utf8')) as {
      mcpServers: { fixture: { disabledTools: string[] } };
    };
    expect(onDisk.mcpServers.fixture.disabledTools).toEqual(['alpha']);
  });
});
