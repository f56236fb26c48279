// What a settings change means for a running server: a changed variable or header restarts it.

import { describe, expect, it } from 'vitest';
import { compareConfigs } from './config-diff.js';
import { parseEntry } from './settings-schema.js';

const config = (entry: Record<string, unknown>) => parseEntry('s', entry).config!;

describe('compareConfigs', () => {
  it('restarts for a changed or added env value or header, not for a changed timeout', () => {
    const before = config({ command: 'node', env: { A: '1' } });
    expect(compareConfigs(before, config({ command: 'node', env: { A: '2' } }))).toBe('restart');
    expect(compareConfigs(before, config({ command: 'node', env: { A: '1', B: '${secret:b}' } }))).toBe('restart');
    const remote = config({ url: 'https://mcp.test/mcp', headers: { Authorization: 'x' } });
    expect(compareConfigs(remote, config({ url: 'https://mcp.test/mcp', headers: { Authorization: 'y' } }))).toBe(
      'restart',
    );
    expect(compareConfigs(before, config({ command: 'node', env: { A: '1' }, timeout: 5 }))).toBe('settings-only');
    expect(compareConfigs(before, config({ command: 'node', env: { A: '1' } }))).toBe('none');
  });
});
