// The MCP server form to and from a settings entry: fields the form does not show survive an edit, and main's
// problems land under the field they are about.

import { describe, expect, it } from 'vitest';
import { isSecretPair, problemsByField, secretValuesOf, toEntry, toForm } from './server-form.js';

describe('toForm', () => {
  it('reads a local command, one argument per line, with its environment as pairs', () => {
    const form = toForm('fs', {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', 7],
      cwd: '/tmp',
      env: { TOKEN: 'abc', DEPTH: 3 },
      timeout: 90,
    });
    expect(form).toMatchObject({
      name: 'fs',
      kind: 'stdio',
      command: 'npx',
      args: '-y\n@modelcontextprotocol/server-filesystem\n7',
      cwd: '/tmp',
      url: '',
      transport: 'auto',
      headers: [],
      timeout: '90',
      startupTimeout: '',
    });
    expect(form.env.map(({ name, value }) => [name, value])).toEqual([
      ['TOKEN', 'abc'],
      ['DEPTH', '3'],
    ]);
  });

  it('reads a remote server from its type, or from a url without a command', () => {
    expect(toForm('a', { type: 'sse', url: 'https://a.test/sse' })).toMatchObject({ kind: 'remote', transport: 'sse' });
    expect(toForm('b', { type: 'http', url: 'https://b.test/mcp' })).toMatchObject({
      kind: 'remote',
      transport: 'streamableHttp',
    });
    expect(toForm('c', { url: 'https://c.test/mcp' })).toMatchObject({ kind: 'remote', transport: 'auto' });
    expect(toForm('d', { command: 'node', url: 'https://d.test/mcp' })).toMatchObject({ kind: 'stdio' });
  });

  it('starts a new server as an empty local command', () => {
    expect(toForm('', null)).toMatchObject({ name: '', kind: 'stdio', command: '', args: '', env: [], headers: [] });
  });
});

describe('toEntry', () => {
  it('keeps what the form does not show, and replaces what it does', () => {
    const original = {
      command: 'old',
      args: ['x'],
      env: { A: '1' },
      autoApprove: ['read_file'],
      disabled: true,
      timeout: 5,
    };
    const form = { ...toForm('fs', original), command: ' node ', args: 'server.js\n\n--verbose\n', timeout: '' };
    expect(toEntry(form, original)).toEqual({
      command: 'node',
      args: ['server.js', '--verbose'],
      env: { A: '1' },
      autoApprove: ['read_file'],
      disabled: true,
    });
  });

  it('writes a remote server without the local command’s fields, and its transport only when chosen', () => {
    const original = { command: 'node', args: ['s.js'], cwd: '/srv', env: { A: '1' } };
    const remote = { ...toForm('web', original), kind: 'remote' as const, url: ' https://mcp.test/mcp ' };
    expect(toEntry(remote, original)).toEqual({ url: 'https://mcp.test/mcp' });
    expect(toEntry({ ...remote, transport: 'sse' }, original)).toEqual({ type: 'sse', url: 'https://mcp.test/mcp' });
    const headers = toForm('web', { url: 'https://mcp.test', headers: { Authorization: 'Bearer t', '': 'x' } }).headers;
    // Authorization looks secret: its value leaves as a secret for main to store, the entry gets its reference.
    expect(toEntry({ ...remote, headers }, null)).toEqual({
      url: 'https://mcp.test/mcp',
      headers: { Authorization: '' },
    });
    expect(secretValuesOf({ ...remote, headers })).toEqual({ headers: { Authorization: 'Bearer t' } });
  });

  it('keeps an explicit stdio type, and drops empty arguments, directory and environment', () => {
    const original = { type: 'stdio', command: 'node', args: ['a'], cwd: '/a', env: { A: '1' } };
    const form = { ...toForm('local', original), args: ' \n', cwd: '  ', env: [] };
    expect(toEntry(form, original)).toEqual({ type: 'stdio', command: 'node' });
  });

  it('sends seconds as numbers, and anything else as typed for main to explain', () => {
    const form = { ...toForm('fs', { command: 'node' }), timeout: ' 2.5 ', startupTimeout: 'soon' };
    expect(toEntry(form, null)).toMatchObject({ timeout: 2.5, startupTimeout: 'soon' });
  });
});

describe('problemsByField', () => {
  it('puts each problem under its field, joins two on one field, and the rest under general with their path', () => {
    expect(
      problemsByField([
        { path: 'mcpServers.fs.timeout', message: 'must be at most 3600', severity: 'error' },
        { path: 'mcpServers.fs.timeout', message: 'must be a number', severity: 'error' },
        { path: 'mcpServers.fs.env.TOKEN', message: 'must be a string', severity: 'error' },
        { path: 'mcpServers.fs.args[0]', message: 'must be a string', severity: 'error' },
        { path: 'mcpServers.fs.type', message: 'unknown transport', severity: 'error' },
        { path: 'mcpServers.fs.unknownField', message: 'not allowed', severity: 'error' },
        { path: 'mcp_settings.json', message: 'not valid JSON', severity: 'error' },
      ]),
    ).toEqual({
      timeout: 'must be at most 3600; must be a number',
      env: 'must be a string',
      args: 'must be a string',
      type: 'unknown transport',
      general: 'mcpServers.fs.unknownField: not allowed; mcp_settings.json: not valid JSON',
    });
  });
});

describe('secret values', () => {
  const hints = [{ name: 'gh.GITHUB_TOKEN', servers: ['gh'], masked: '••••abcd' }];
  const entry = { command: 'npx', env: { GITHUB_TOKEN: '${secret:gh.GITHUB_TOKEN}', DEBUG: '1', API_KEY: '${env:K}' } };

  it('shows a stored secret masked and empty, and keeps its reference until a new value is typed', () => {
    const form = toForm('gh', entry, hints);
    const token = form.env.find((pair) => pair.name === 'GITHUB_TOKEN')!;
    expect(token).toMatchObject({ value: '', secret: true, stored: { name: 'gh.GITHUB_TOKEN', masked: '••••abcd' } });
    expect(toEntry(form, entry)).toEqual(entry);
    expect(secretValuesOf(form)).toEqual({});

    const typed = { ...form, env: form.env.map((pair) => (pair === token ? { ...pair, value: 'ghp_new' } : pair)) };
    expect(secretValuesOf(typed)).toEqual({ env: { GITHUB_TOKEN: 'ghp_new' } });
  });

  it('locks names that look secret by default, but not references, and follows the lock when it is set', () => {
    const form = toForm('gh', entry, hints);
    expect(form.env.map((pair) => [pair.name, isSecretPair(pair)])).toEqual([
      ['GITHUB_TOKEN', true],
      ['DEBUG', false],
      ['API_KEY', false],
    ]);
    const [pair] = toForm('x', { command: 'x', env: { DB_PASSWORD: 'hunter2' } }).env;
    expect(isSecretPair(pair!)).toBe(true);
    expect(isSecretPair({ ...pair!, secret: false })).toBe(false);
    expect(isSecretPair({ ...pair!, name: 'MODE', secret: true })).toBe(true);
  });
});

describe('the Sampling settings', () => {
  it('reads and writes `sampling`, leaving it out while it says nothing but the defaults', () => {
    const written = { command: 'npx', sampling: { model: 'openai/gpt-5-mini', approval: 'always' } };
    const form = toForm('fs', written);
    expect(form).toMatchObject({ samplingModel: 'openai/gpt-5-mini', samplingApproval: 'always' });
    expect(toEntry(form, written).sampling).toEqual({ model: 'openai/gpt-5-mini', approval: 'always' });
    expect(toEntry({ ...form, samplingModel: '', samplingApproval: 'ask' }, written)).not.toHaveProperty('sampling');
    expect(toEntry({ ...form, samplingModel: '', samplingApproval: 'never' }, written).sampling).toEqual({
      approval: 'never',
    });
    // Something main will not accept is read as the default, and main's problem lands under Sampling.
    expect(toForm('fs', { command: 'npx', sampling: { approval: 'sometimes' } }).samplingApproval).toBe('ask');
    expect(
      problemsByField([{ path: 'mcpServers.fs.sampling.approval', server: 'fs', message: 'bad', severity: 'error' }]),
    ).toEqual({ sampling: 'bad' });
  });
});
