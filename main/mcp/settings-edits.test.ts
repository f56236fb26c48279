// Edits through the manager, the settings file's one writer: each is applied before it resolves (no reload, no
// watcher), and the manager says that the settings changed, once per change, whoever made it.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test/support/wait-for.js';
import type { SettingsChangedEvent, ToolsChangedEvent } from './mcp-manager.js';
import {
  cleanupsAfterEach,
  createTestManager,
  fixtureEntry,
  startSettledManager,
  writeSettings,
} from './test-support.js';

const cleanups = cleanupsAfterEach();

async function startManager(servers: Record<string, unknown>, watch = false) {
  const { dataDir, manager } = await startSettledManager(cleanups, servers, watch);
  const settingsChanges: SettingsChangedEvent[] = [];
  manager.onSettingsChanged((event) => settingsChanges.push(event));
  return { dataDir, manager, settingsChanges };
}

async function readEntries(dataDir: string): Promise<Record<string, Record<string, unknown>>> {
  return JSON.parse(await readFile(path.join(dataDir, 'mcp_settings.json'), 'utf8')).mcpServers;
}

describe('edits through the manager', () => {
  it('are applied when they resolve, with the file watcher off and no reload', async () => {
    const { dataDir, manager, settingsChanges } = await startManager({ first: fixtureEntry() });
    expect(manager.server('first')?.state).toBe('connected');

    await manager.setServerDisabled('first', true);
    expect(manager.server('first')?.state).toBe('disabled');
    expect((await readEntries(dataDir)).first?.disabled).toBe(true);

    const written = await manager.saveServer('second', fixtureEntry());
    expect(written).toEqual({ saved: true, problems: [] });
    expect(manager.list().map((server) => server.name)).toEqual(['first', 'second']);
    await waitFor(() => manager.server('second')?.state === 'connected', { what: 'the added server to connect' });

    const toolEvents: ToolsChangedEvent[] = [];
    manager.onToolsChanged((event) => toolEvents.push(event));
    expect(await manager.setToolAutoApprove('second', 'alpha', true)).toEqual(['alpha']);
    expect(manager.serverConfig('second')?.autoApprove).toEqual(['alpha']);
    expect(toolEvents).toContainEqual({ server: 'second' });

    expect(await manager.removeServer('first')).toBe(true);
    expect(manager.list().map((server) => server.name)).toEqual(['second']);

    expect(settingsChanges).toEqual([{ origin: 'edit' }, { origin: 'edit' }, { origin: 'edit' }, { origin: 'edit' }]);
  });

  it('that write nothing change nothing and say nothing', async () => {
    const { manager, settingsChanges } = await startManager({ only: fixtureEntry() });
    const refused = await manager.saveServer('broken', { command: 42 });
    expect(refused.saved).toBe(false);
    await expect(manager.setServerDisabled('missing', true)).rejects.toThrow(/no MCP server "missing"/);
    expect(manager.list().map((server) => server.name)).toEqual(['only']);
    // A failed edit does not stop the queue: the next one is applied.
    await manager.setServerDisabled('only', true);
    expect(manager.server('only')?.state).toBe('disabled');
    expect(settingsChanges).toEqual([{ origin: 'edit' }]);
  });

  it('write the file even before the manager starts, and the first start applies them', async () => {
    const { manager } = await createTestManager(cleanups);
    await manager.saveServer('later', fixtureEntry([], { disabled: true }));
    expect(manager.list()).toEqual([]);
    await manager.start();
    expect(manager.server('later')?.state).toBe('disabled');
  });
});

describe('edits behind the manager’s back', () => {
  it('are applied by the watcher and reported as a change of the file', async () => {
    const { dataDir, manager, settingsChanges } = await startManager({ first: fixtureEntry() }, true);
    await writeSettings(dataDir, { first: fixtureEntry([], { disabled: true }) });
    await waitFor(() => settingsChanges.length > 0, { what: 'the watcher to apply the edit' });
    expect(manager.server('first')?.state).toBe('disabled');
    expect(settingsChanges).toEqual([{ origin: 'file' }]);
  });
});
