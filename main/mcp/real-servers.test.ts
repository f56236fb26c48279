// Tools, resources and prompts of the published reference servers, through the manager, over real stdio.

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from './mcp-manager.js';
import { toolResultText } from './tool-results.js';
import {
  everythingEntry,
  filesystemBin,
  makeTempDir,
  node,
  removeTempDir,
  silentLogger,
  testSearchPath,
  writeSettings,
} from './test-support.js';

describe('the reference servers, through the manager', () => {
  let dataDir: string;
  let filesDir: string;
  let manager: McpManager;

  beforeAll(async () => {
    dataDir = await makeTempDir();
    filesDir = await makeTempDir();
    await writeFile(path.join(filesDir, 'notes.txt'), 'remember the milk\n');
    await writeSettings(dataDir, {
      everything: everythingEntry({
        autoApprove: ['echo'],
        env: { GREETING: 'hello ${env:SWITCHYARD_TEST_NAME}', UNSET: '${env:SWITCHYARD_TEST_UNSET}' },
      }),
      slow: everythingEntry({ timeout: 1 }),
      files: { command: node, args: [filesystemBin, filesDir] },
    });
    manager = new McpManager({
      dataDir,
      logger: silentLogger,
      watch: false,
      searchPath: testSearchPath,
      environment: { ...process.env, SWITCHYARD_TEST_NAME: 'ada', SWITCHYARD_TEST_LEAK: 'must not leak' },
    });
    await manager.start();
    const servers = await manager.waitUntilSettled();
    expect(servers.map((server) => [server.name, server.state])).toEqual([
      ['everything', 'connected'],
      ['slow', 'connected'],
      ['files', 'connected'],
    ]);
  });

  afterAll(async () => {
    await manager?.stop();
    await removeTempDir(dataDir);
    await removeTempDir(filesDir);
  });

  it('lists every tool', () => {
    const names = manager.listTools('everything').map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-env', 'trigger-long-running-operation']));
    expect(manager.server('everything')?.toolCount).toBe(names.length);
    const echo = manager.listTools('everything').find((tool) => tool.name === 'echo');
    expect(echo?.inputSchema.properties).toHaveProperty('message');
  });

  it('calls tools and returns their text', async () => {
    const echo = await manager.callTool('everything', 'echo', { message: 'hi there' });
    expect(echo.isError).toBe(false);
    expect(toolResultText(echo)).toBe('Echo: hi there');
    const sum = await manager.callTool('everything', 'get-sum', { a: 2, b: 3 });
    expect(toolResultText(sum)).toContain('is 5');
  });

  it('hands on invalid arguments and unknown tools as results beginning with Error:', async () => {
    const invalid = await manager.callTool('everything', 'get-sum', { a: 'two' });
    expect(invalid.isError).toBe(true);
    expect(toolResultText(invalid)).toMatch(/^Error: .*-32602.*get-sum/s);
    const unknown = await manager.callTool('everything', 'no-such-tool', {});
    expect(unknown.isError).toBe(true);
    expect(toolResultText(unknown)).toMatch(/^Error: .*no-such-tool/);
    const noServer = await manager.callTool('nope', 'echo', {});
    expect(toolResultText(noServer)).toBe('Error: there is no MCP server "nope".');
  });

  it('times out a slow call after the server timeout, and the server stays usable', async () => {
    // The operation takes 20 s: an error naming the 1 s timeout, with the server still answering, is the timeout.
    const result = await manager.callTool('slow', 'trigger-long-running-operation', { duration: 20, steps: 20 });
    expect(result.isError).toBe(true);
    expect(toolResultText(result)).toMatch(
      /^Error: tool "trigger-long-running-operation" on server "slow" timed out after 1 s/,
    );
    const echo = await manager.callTool('slow', 'echo', { message: 'still here' });
    expect(toolResultText(echo)).toBe('Echo: still here');
  });

  it('cancels a call through its AbortSignal', async () => {
    const controller = new AbortController();
    const calling = manager.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 20, steps: 20 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 200);
    const result = await calling;
    expect(result.isError).toBe(true);
    expect(toolResultText(result)).toMatch(/^Error: the call to .* was cancelled/);
    const echo = await manager.callTool('everything', 'echo', { message: 'after cancel' });
    expect(toolResultText(echo)).toBe('Echo: after cancel');
  });

  it('passes the env setting with ${env:VAR} expanded, and not the rest of our environment', async () => {
    const result = await manager.callTool('everything', 'get-env', {});
    const environment = JSON.parse(toolResultText(result)) as Record<string, string>;
    expect(environment.GREETING).toBe('hello ada');
    expect(environment.UNSET).toBe('');
    expect(environment.PATH).toBe(process.env.PATH);
    expect(environment).not.toHaveProperty('SWITCHYARD_TEST_LEAK');
    expect(manager.logs('everything')).toContain(
      '[switchyard] ${env:SWITCHYARD_TEST_UNSET} is not set; using an empty string.',
    );
  });

  it('lists and reads resources, and lists prompts', async () => {
    const resources = await manager.listResources('everything');
    const document = resources.find((resource) => resource.uri.startsWith('demo://resource/static/document/'));
    expect(document).toBeDefined();
    const contents = await manager.readResource('everything', document!.uri);
    expect(contents[0]).toMatchObject({ uri: document!.uri, mimeType: 'text/markdown' });
    expect((contents[0] as { text: string }).text.length).toBeGreaterThan(0);
    const prompts = await manager.listPrompts('everything');
    expect(prompts.map((prompt) => prompt.name)).toContain('simple-prompt');
    // The filesystem server declares no resources: an empty list, not a "method not found".
    await expect(manager.listResources('files')).resolves.toEqual([]);
  });

  it('reads a file through server-filesystem', async () => {
    expect(manager.listTools('files').map((tool) => tool.name)).toContain('read_text_file');
    const result = await manager.callTool('files', 'read_text_file', { path: path.join(filesDir, 'notes.txt') });
    expect(result.isError).toBe(false);
    expect(toolResultText(result)).toContain('remember the milk');
    const outside = await manager.callTool('files', 'read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
    expect(toolResultText(outside)).toMatch(/^Error:/);
  });

  it('offers every connected tool as a uniquely named function, mapped back on call', async () => {
    const catalog = manager.toolCatalog();
    const names = catalog.functionTools.map((tool) => tool.function.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(catalog.resolve('everything__get-sum')).toMatchObject({ server: 'everything', tool: 'get-sum' });
    expect(catalog.resolve('files__read_text_file')).toMatchObject({ server: 'files', tool: 'read_text_file' });
    expect(catalog.needsApproval('everything__echo')).toBe(false);
    expect(catalog.needsApproval('everything__get-sum')).toBe(true);
    expect(catalog.needsApproval('slow__echo')).toBe(true);
    const result = await manager.callFunctionTool('everything__get-sum', '{"a": 40, "b": 2}');
    expect(toolResultText(result)).toContain('is 42');
    const badJson = await manager.callFunctionTool('everything__get-sum', '{"a": 40,');
    expect(toolResultText(badJson)).toMatch(/^Error: the arguments are not valid JSON/);
  });
});
