// The install link channels through the real bridge of a real app: the preview writes nothing, the confirm writes
// the entry with its secret moved to the store, a name that exists is never overwritten, a registry link is not
// confirmed here, and a refused link is an `invalid-request` with the reason.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BridgeChannel, BridgeRequest, BridgeResponse } from '../../../shared/bridge/contract.js';
import type { BridgeErrorInfo } from '../../../shared/bridge/transport.js';
import type { BridgeHandlers } from '../create-bridge-handlers.js';
import { useBridgeApp } from '../test-support.js';

let dataDir: string;
let bridge: BridgeHandlers;
useBridgeApp((started) => ({ dataDir, bridge } = started), { models: [] });

async function call<C extends BridgeChannel>(channel: C, request: BridgeRequest<C>): Promise<BridgeResponse<C>> {
  const result = await bridge.invoke(channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as BridgeResponse<C>;
}

async function failure(channel: BridgeChannel, request: unknown): Promise<BridgeErrorInfo> {
  const result = await bridge.invoke(channel, request);
  if (result.ok) throw new Error(`${channel} succeeded: ${JSON.stringify(result.value)}`);
  return result.error;
}

const settingsFile = () => path.join(dataDir, 'mcp_settings.json');
const fileText = () => (fs.existsSync(settingsFile()) ? fs.readFileSync(settingsFile(), 'utf8') : '');
/** The servers in the file (reading the settings creates it, empty). */
const servers = () => (fileText() ? (JSON.parse(fileText()) as { mcpServers: object }).mcpServers : {});
const entry = { command: 'node', args: ['server.js'], env: { API_TOKEN: 'tok-0123456789abcdef', MODE: 'fast' } };
const link = `switchyard://mcp/install?name=tools&config=${Buffer.from(JSON.stringify(entry)).toString('base64url')}`;

describe('the install link channels', () => {
  it('previews without writing, then writes the entry on confirm with its secret in the store', async () => {
    expect(await call('mcp:install-link-preview', { link })).toMatchObject({
      kind: 'config',
      entryName: 'tools',
      clash: false,
      secrets: ['API_TOKEN'],
    });
    expect(servers()).toEqual({});
    expect(await call('mcp:install-link-confirm', { link, entryName: 'tools' })).toEqual({ entryName: 'tools' });
    const written = JSON.parse(fileText()) as { mcpServers: Record<string, { env: Record<string, string> }> };
    expect(written.mcpServers.tools?.env).toEqual({ API_TOKEN: '${secret:tools.API_TOKEN}', MODE: 'fast' });
    expect(fileText()).not.toContain('tok-0123456789abcdef');
  });

  it('never overwrites: a clash is previewed under a free name, and confirming the taken name is refused', async () => {
    await call('mcp:install-link-confirm', { link, entryName: 'tools' });
    const before = fileText();
    expect(await call('mcp:install-link-preview', { link })).toMatchObject({ clash: true, entryName: 'tools-2' });
    expect(await failure('mcp:install-link-confirm', { link, entryName: 'tools' })).toEqual({
      code: 'invalid-request',
      message: 'A server named "tools" exists already; choose another name.',
    });
    expect(fileText()).toBe(before);
    await call('mcp:install-link-confirm', { link, entryName: 'tools-2' });
    expect(Object.keys((JSON.parse(fileText()) as { mcpServers: object }).mcpServers)).toEqual(['tools', 'tools-2']);
  });

  it('refuses bad links and registry links at confirm, writing nothing', async () => {
    const bad = `switchyard://mcp/install?name=x&config=${Buffer.from('{"command":"npx && curl x"}').toString('base64url')}`;
    expect(await failure('mcp:install-link-preview', { link: bad })).toMatchObject({
      code: 'invalid-request',
      message: expect.stringContaining('holds the shell character "&"'),
    });
    expect(await failure('mcp:install-link-confirm', { link: bad, entryName: 'x' })).toMatchObject({
      code: 'invalid-request',
    });
    const registryLink = 'switchyard://mcp/install?name=io.github.user/weather';
    expect(await failure('mcp:install-link-confirm', { link: registryLink, entryName: 'weather' })).toEqual({
      code: 'invalid-request',
      message: 'A registry link installs through the registry’s form.',
    });
    expect(servers()).toEqual({});
  });
});
