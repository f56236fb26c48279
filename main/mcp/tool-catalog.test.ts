import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { baseFunctionName, ToolCatalog } from './tool-catalog.js';

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  ...extra,
});

describe('tool catalog', () => {
  it('names functions server__tool and maps them back', () => {
    const catalog = new ToolCatalog([
      { server: 'github', tools: [tool('create_issue', { description: 'Opens an issue' })], autoApprove: [] },
    ]);
    expect(catalog.functionTools).toEqual([
      {
        type: 'function',
        function: {
          name: 'github__create_issue',
          description: 'Opens an issue',
          parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
        },
      },
    ]);
    expect(catalog.resolve('github__create_issue')).toMatchObject({ server: 'github', tool: 'create_issue' });
    expect(catalog.resolve('github__nope')).toBeUndefined();
  });

  it('carries what the server’s annotations say a tool does, and nothing it did not say', () => {
    const catalog = new ToolCatalog([
      {
        server: 'fs',
        tools: [
          tool('read', { annotations: { readOnlyHint: true } }),
          tool('delete', { annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false } }),
          tool('plain'),
        ],
        autoApprove: [],
      },
    ]);
    expect(catalog.resolve('fs__read')?.hints).toEqual({ readOnly: true });
    expect(catalog.resolve('fs__delete')?.hints).toEqual({ readOnly: false, destructive: true, openWorld: false });
    expect(catalog.resolve('fs__plain')?.hints).toEqual({});
  });

  it('sanitises, truncates to 64 characters with a stable hash, and keeps names unique', () => {
    const long = 'x'.repeat(80);
    const catalog = new ToolCatalog([
      { server: 'my server', tools: [tool('read.file'), tool(long)], autoApprove: [] },
      { server: 'my_server', tools: [tool('read.file')], autoApprove: [] },
    ]);
    const names = catalog.functionTools.map((entry) => entry.function.name);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(names).size).toBe(3);
    // The two servers sanitise to the same `my_server__read_file`: both get a hash of their real names.
    const a = catalog.entries().find((entry) => entry.server === 'my server' && entry.tool === 'read.file')!;
    const b = catalog.entries().find((entry) => entry.server === 'my_server')!;
    expect(a.name).toMatch(/^my_server__read_file_[0-9a-f]{8}$/);
    expect(b.name).toMatch(/^my_server__read_file_[0-9a-f]{8}$/);
    expect(a.name).not.toBe(b.name);
    const truncated = baseFunctionName('my server', long);
    expect(truncated).toHaveLength(64);
    expect(names).toContain(truncated);
    // Stable: the same pair gets the same name whatever the order of servers.
    const reversed = new ToolCatalog([
      { server: 'my_server', tools: [tool('read.file')], autoApprove: [] },
      { server: 'my server', tools: [tool(long), tool('read.file')], autoApprove: [] },
    ]);
    expect(reversed.resolve(a.name)).toMatchObject({ server: 'my server', tool: 'read.file' });
    expect(reversed.resolve(truncated)).toMatchObject({ server: 'my server', tool: long });
  });

  it('asks for approval unless the tool is in autoApprove', () => {
    const catalog = new ToolCatalog([
      { server: 'fs', tools: [tool('read'), tool('write')], autoApprove: ['read'] },
      { server: 'other', tools: [tool('read')], autoApprove: [] },
    ]);
    expect(catalog.needsApproval('fs__read')).toBe(false);
    expect(catalog.needsApproval('fs__write')).toBe(true);
    expect(catalog.needsApproval('other__read')).toBe(true);
    expect(catalog.needsApproval('unknown__tool')).toBe(true);
  });

  it('gives schemas without properties an empty one, and falls back to the title for a description', () => {
    const catalog = new ToolCatalog([
      { server: 's', tools: [{ name: 'ping', title: 'Ping', inputSchema: { type: 'object' } }], autoApprove: [] },
    ]);
    expect(catalog.functionTools[0]?.function).toEqual({
      name: 's__ping',
      description: 'Ping',
      parameters: { type: 'object', properties: {} },
    });
  });
});
