// Cooldowns as a user meets them: providers configured with `--cooldown-after` and `--cooldown`, a real
// `switchyard serve` in front of a failing and a healthy fake upstream, the official openai SDK as the caller, and
// `switchyard providers list` (another process on the same data folder) showing each target's state.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderInfo } from '../../shared/api/index.js';
import { cleanUpServe, runCli, startServer, type RunningServer } from '../support/cli.js';
import { answer, fail, FakeOpenAI } from '../support/fake-openai.js';
import { waitFor } from '../support/wait-for.js';

let dataDir: string;
let primary: FakeOpenAI;
let backup: FakeOpenAI;
let server: RunningServer | undefined;
const env = { SWITCHYARD_SECRET_STORE: 'file' };
const hi = [{ role: 'user' as const, content: 'hi' }];

function cli(...args: string[]) {
  return runCli([...args, '--data-dir', dataDir], { env });
}

async function listed(): Promise<ProviderInfo[]> {
  const result = await cli('providers', 'list', '--json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ProviderInfo[];
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-cooldown-e2e-'));
  primary = new FakeOpenAI({ models: ['m1'], fallback: answer('answer from primary') });
  backup = new FakeOpenAI({ models: ['m1'], fallback: answer('answer from backup') });
  await primary.start();
  await backup.start();
});

afterAll(() => cleanUpServe(dataDir, [server], [primary, backup]));

describe('cooldowns through switchyard serve', () => {
  it('checks the settings the CLI is given', async () => {
    const addWith = (...flags: string[]) =>
      cli('providers', 'add', 'x', '--kind', 'openai', '--base-url', backup.baseUrl, '--no-api-key', ...flags);
    const negative = await addWith('--cooldown-after', '-1');
    expect(negative.code).not.toBe(0);
    expect(negative.stderr).toContain('a whole number from 0 to 1000');
    const tooLong = await addWith('--cooldown', '601');
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.stderr).toContain('Cooldown must be a whole number of seconds from 1 to 600');
    const unknown = await cli('providers', 'update', 'nobody', '--cooldown', '5');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('There is no provider "nobody"');
  });

  it('cools a failing target after N failures, sends the next requests straight to the fallback, then lets one trial through', async () => {
    const add = (id: string, baseUrl: string, ...flags: string[]) =>
      cli('providers', 'add', id, '--kind', 'openai', '--base-url', baseUrl, '--no-api-key', ...flags);
    expect((await add('primary', primary.baseUrl, '--cooldown-after', '3', '--cooldown', '1')).code).toBe(0);
    expect((await add('backup', backup.baseUrl, '--no-cooldown')).code).toBe(0);
    const updated = await cli('providers', 'update', 'primary', '--cooldown', '10');
    expect(updated.stdout).toBe(`Provider primary at ${primary.baseUrl}; cooldown after 3, 10 s.\n`);
    expect((await listed()).map((provider) => [provider.id, provider.cooldown, provider.targets])).toEqual([
      ['primary', { after: 3, seconds: 10 }, []],
      ['backup', { after: 0 }, []],
    ]);
    const created = await cli('keys', 'create', '--name', 'team', '--json');
    const { key } = JSON.parse(created.stdout) as { key: string };
    server = await startServer(['--data-dir', dataDir], env);
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: key, maxRetries: 0 });
    const ask = () =>
      client.chat.completions.create({
        model: 'primary/m1',
        models: ['primary/m1', 'backup/m1'],
        messages: hi,
        stream: false,
      } as never) as Promise<OpenAI.ChatCompletion>;

    primary.on('m1', fail(503));
    // Each request tries primary three times (its retries) and falls back: one failure per request, so the first
    // request leaves primary healthy and the third cools it.
    expect((await ask()).choices[0]!.message.content).toBe('answer from backup');
    expect(primary.chatRequests()).toHaveLength(3);
    expect((await listed())[0]!.targets).toEqual([]);
    for (let i = 0; i < 2; i += 1) expect((await ask()).choices[0]!.message.content).toBe('answer from backup');
    expect(primary.chatRequests()).toHaveLength(9);
    // (Each list is another process; the 10 s cooldown outlasts them on a loaded machine.)
    const [cooling] = (await listed())[0]!.targets!;
    expect(cooling).toMatchObject({ model: 'primary/m1', provider: 'primary', state: 'cooling' });
    const table = await cli('providers', 'list');
    expect(table.stdout).toMatch(/primary\/m1 cooling down until \d\d:\d\d:\d\d/);
    expect(table.stdout).toContain('after 3, 10 s');
    expect(table.stdout).toContain('off');

    // While it cools, nobody waits on it: the requests go straight to the fallback, and primary sees none of them.
    for (let i = 0; i < 3; i += 1) expect((await ask()).choices[0]!.message.content).toBe('answer from backup');
    const streamed = await client.chat.completions.create({
      model: 'primary/m1',
      models: ['primary/m1', 'backup/m1'],
      messages: hi,
      stream: true,
    } as never);
    let text = '';
    for await (const part of streamed as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>) {
      text += part.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('answer from backup');
    expect(primary.chatRequests()).toHaveLength(9);
    // Alone, the cooled target answers at once with 503 and the wait as Retry-After.
    const alone = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'primary/m1', messages: hi }),
    });
    expect(alone.status).toBe(503);
    expect(Number(alone.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await alone.json()) as { error: { message: string } }).error.message).toContain('cooling down');
    expect(primary.chatRequests()).toHaveLength(9);

    // The cooldown ends: the list says the next request is the trial; it is, and primary is healthy again.
    await waitFor(async () => (await listed())[0]!.targets![0]?.state === 'trial', { what: 'the trial' });
    expect((await cli('providers', 'list')).stdout).toContain('primary/m1 trial');
    primary.on('m1', answer('answer from primary'));
    expect((await ask()).choices[0]!.message.content).toBe('answer from primary');
    expect(primary.chatRequests()).toHaveLength(10);
    expect((await listed())[0]!.targets).toEqual([]);
    expect((await ask()).choices[0]!.message.content).toBe('answer from primary');
  }, 120_000);
});
