// `serve` stops on SIGTERM once its requests are finished: nothing it started along the way (here, the worker that
// counts tokens) may keep the process running afterwards.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServer, type RunningServer } from '../support/cli.js';

const dataDirs: string[] = [];
const servers: RunningServer[] = [];

afterEach(async () => {
  // A test that failed before its SIGTERM leaves no server behind.
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  for (const dataDir of dataDirs.splice(0)) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('switchyard serve on SIGTERM', () => {
  it('exits after it has counted tokens', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-exit-'));
    dataDirs.push(dataDir);
    const env = { SWITCHYARD_SECRET_STORE: 'file' };
    // A local OpenAI-compatible provider: Anthropic's count_tokens for it is counted here, not asked upstream.
    const add = ['providers', 'add', 'local', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1'];
    expect((await runCli([...add, '--data-dir', dataDir], { env })).code).toBe(0);
    const created = await runCli(['keys', 'create', '--name', 'exit', '--json', '--data-dir', dataDir], { env });
    const { key } = JSON.parse(created.stdout) as { key: string };
    const server = await startServer(['--data-dir', dataDir], env);
    servers.push(server);
    const response = await fetch(`${new URL(server.baseUrl).origin}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/any', messages: [{ role: 'user', content: 'Hello there' }] }),
    });
    expect(await response.json()).toEqual({ input_tokens: expect.any(Number) });
    server.child.kill('SIGTERM');
    const stuck = setTimeout(() => server.child.kill('SIGKILL'), 20_000);
    const code = await server.exited;
    clearTimeout(stuck);
    expect(server.stderr()).toContain('Stopped.');
    expect(code).toBe(0);
  }, 60_000);
});
