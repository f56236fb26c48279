// Model aliases as a user meets them: `switchyard models alias` run next to a running `switchyard serve` (another
// process on the same data dir) takes effect at the server's next request, without a restart.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleTarget } from '../../shared/api/index.js';
import { cleanUpServe, runCli, startServer, type RunningServer } from '../support/cli.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';

let dataDir: string;
let fake: FakeUpstream;
let server: RunningServer | undefined;
const env = { SWITCHYARD_SECRET_STORE: 'file' };

function cli(...args: string[]) {
  return runCli([...args, '--data-dir', dataDir], { env });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-alias-e2e-'));
  fake = await startFakeUpstream({ models: ['echo-1', 'echo-2'] });
});

afterAll(() => cleanUpServe(dataDir, [server], [fake]));

describe('switchyard models alias next to switchyard serve', () => {
  it('an alias added, changed and removed by the CLI is used by the running server at its next request', async () => {
    const added = await cli('providers', 'add', 'up', '--kind', 'openai', '--base-url', fake.baseUrl);
    expect(added.code, added.stderr).toBe(0);
    const created = await cli('keys', 'create', '--name', 'codex', '--json');
    expect(created.code, created.stderr).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    server = await startServer(['--data-dir', dataDir], env);
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: key, maxRetries: 0 });
    const ask = () =>
      client.chat.completions.create({
        model: 'gpt-5-codex',
        messages: [{ role: 'user', content: 'hi' }],
        stream: false,
      });

    await expect(ask()).rejects.toMatchObject({ status: 404 });

    expect((await cli('models', 'alias', 'gpt-5-codex', 'up/echo-1')).stdout).toBe(
      'Created alias gpt-5-codex → up/echo-1.\n',
    );
    expect((await ask()).model).toBe('up/echo-1');
    expect(fake.chatRequests().at(-1)?.body?.model).toBe('echo-1');

    expect((await cli('models', 'alias', 'gpt-5-codex', 'up/echo-2')).code).toBe(0);
    expect((await ask()).model).toBe('up/echo-2');

    const listed = await cli('models', 'alias', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: 'gpt-5-codex', target: 'up/echo-2', ...singleTarget('up/echo-2'), created_at: expect.any(String) },
    ]);

    // A model group: its first target is no model of the provider, so the next one answers.
    const grouped = await cli(
      'models',
      'alias',
      'gpt-5-codex',
      'up/no-such-model',
      'up/echo-1',
      '--strategy',
      'ordered',
    );
    expect(grouped.stdout).toBe(
      'Alias gpt-5-codex now points to up/no-such-model, up/echo-1 (ordered) (it pointed to up/echo-2).\n',
    );
    expect((await ask()).model).toBe('up/echo-1');
    const refused = await cli('models', 'alias', 'gpt-5-codex', 'up/echo-1', 'up/echo-2', '--weights', '1');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/1 weights for 2 targets: give one weight per target/);
    expect((await cli('models', 'alias', 'remove', 'gpt-5-codex')).code).toBe(0);
    await expect(ask()).rejects.toMatchObject({ status: 404 });
  });
});
