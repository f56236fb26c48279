// Connect for the MCP clients (Claude Desktop, Cursor, VS Code, Cline): each gets one `switchyard` entry that runs
// the MCP hub over stdio, in its own file and shape, with the person's other servers and comments kept, no key
// created, and undo putting every byte back.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectToolId } from '../../shared/bridge/connect-types.js';
import { ToolConnections, type ConnectKeys } from './connections.js';

let root: string;
let home: string;
const created: string[] = [];
const keys: ConnectKeys = {
  create: async (name) => {
    created.push(name);
    return { id: `key-${created.length}`, key: 'sk-sy-v1-secret' };
  },
  delete: async () => false,
};
const hubCommand = { command: '/usr/bin/node', args: ['/opt/switchyard/bin/switchyard.js', 'mcp', 'serve'] };

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-connect-mcp-'));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
  created.length = 0;
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function connections() {
  // XDG_CONFIG_HOME unset: the Linux default under home, as on the machines the tests run on.
  return new ToolConnections({ dataDir: path.join(root, 'data'), keys, home, env: {}, hubCommand });
}

interface ClientCase {
  tool: ConnectToolId;
  file: string;
  member: string;
  extra: Record<string, unknown>;
}

const cases: ClientCase[] = [
  { tool: 'claude-desktop', file: '.config/Claude/claude_desktop_config.json', member: 'mcpServers', extra: {} },
  { tool: 'cursor', file: '.cursor/mcp.json', member: 'mcpServers', extra: {} },
  { tool: 'vscode', file: '.config/Code/User/mcp.json', member: 'servers', extra: { type: 'stdio' } },
  {
    tool: 'cline',
    file: '.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    member: 'mcpServers',
    extra: { disabled: false },
  },
];

describe.each(cases)('connect $tool', ({ tool, file, member, extra }) => {
  const full = () => path.join(home, file);

  it('adds the hub entry beside the person’s servers, creates no key, and undo restores every byte', async () => {
    const original = `{\n  // mine\n  "${member}": { "fs": { "command": "npx", "args": ["fs"] } },\n  "other": 1\n}\n`;
    fs.mkdirSync(path.dirname(full()), { recursive: true });
    fs.writeFileSync(full(), original);

    const { result, secret } = await connections().connect(tool, { gatewayUrl: 'http://127.0.0.1:7420' });
    expect(secret).toBeNull();
    expect(result).toMatchObject({ keyId: null, keyName: null, replacedKeyId: null });
    expect(created).toEqual([]);
    expect(result.files).toEqual([
      expect.objectContaining({ path: full(), holdsSecret: false, keys: [`${member}.switchyard`] }),
    ]);
    const text = fs.readFileSync(full(), 'utf8');
    expect(text).toContain('// mine');
    const written = parseJsonc(text) as Record<string, Record<string, unknown>>;
    expect(written[member]).toEqual({
      fs: { command: 'npx', args: ['fs'] },
      switchyard: { ...extra, ...hubCommand },
    });
    expect(written.other).toBe(1);
    expect(result.notes.join('\n')).toContain('/usr/bin/node /opt/switchyard/bin/switchyard.js mcp serve');
    expect(
      connections()
        .list()
        .find((info) => info.id === tool),
    ).toMatchObject({ connected: true, keyId: null });

    const undone = await connections().undo(tool);
    expect(undone).toMatchObject({ wasConnected: true, deletedKeyId: null });
    expect(fs.readFileSync(full(), 'utf8')).toBe(original);
  });

  it('previews the entry without a key placeholder', () => {
    const preview = connections().preview(tool, { gatewayUrl: 'http://127.0.0.1:7420' });
    expect(preview.files).toEqual([{ path: full(), text: expect.stringContaining('"switchyard"') }]);
    expect(preview.files[0]!.text).not.toContain('PASTE_YOUR_SWITCHYARD_KEY');
    expect(fs.existsSync(full())).toBe(false);
  });
});
