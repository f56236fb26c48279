import { describe, expect, it } from 'vitest';
import { compareConfigs } from './config-diff.js';
import { parseEntry } from './settings-schema.js';
import type { ServerConfig } from './settings-schema.js';

const config = (entry: Record<string, unknown>): ServerConfig => {
  const parsed = parseEntry('s', entry);
  if (!parsed.config) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
};

describe('what a settings change means for a running server', () => {
  const stdio = { command: 'node', args: ['server.js'], env: { TOKEN: 'a', REGION: 'eu' } };
  const remote = { url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'a' }, oauth: { clientId: 'one' } };

  it('restarts it when a value inside env, headers or oauth changes', () => {
    expect(compareConfigs(config(stdio), config({ ...stdio, env: { TOKEN: 'b', REGION: 'eu' } }))).toBe('restart');
    expect(compareConfigs(config(remote), config({ ...remote, headers: { 'X-Team': 'b' } }))).toBe('restart');
    expect(compareConfigs(config(remote), config({ ...remote, oauth: { clientId: 'two' } }))).toBe('restart');
  });

  it('does not restart it for the order of keys, nor for settings read at call time', () => {
    expect(compareConfigs(config(stdio), config({ ...stdio, env: { REGION: 'eu', TOKEN: 'a' } }))).toBe(
      'settings-only',
    );
    expect(compareConfigs(config(stdio), config({ ...stdio, timeout: 120 }))).toBe('settings-only');
    expect(compareConfigs(config(stdio), config(stdio))).toBe('none');
  });
});
