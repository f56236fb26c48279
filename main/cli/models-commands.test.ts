// `switchyard models …` (main/cli/models-commands.ts), run in-process with a fresh program, captured output and a
// real app on a temporary data dir in front of a fake upstream.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../test/support/fake-openai-upstream.js';
import { createApp } from '../app/index.js';
import { openStore } from '../store/index.js';
import { registerModelsCommands } from './models-commands.js';
import { runCommands } from './test-support.js';

let dataDir: string;
let upstream: FakeUpstream;
let out: string[];
let err: string[];

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-models-cli-'));
  upstream = await startFakeUpstream({ models: ['echo-1', 'echo-2'] });
  const store = openStore(dataDir);
  await store.upsertProvider({
    id: 'up',
    kind: 'openai',
    base_url: upstream.baseUrl,
    has_api_key: false,
    created_at: '2026-01-01T00:00:00.000Z',
  });
  await store.close();
  out = [];
  err = [];
});

afterEach(async () => {
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<void> {
  const openApp = async ({ dataDir }: { dataDir?: string }) =>
    createApp({
      dataDir: dataDir!,
      secretStoreMode: 'file',
      localProviders: false,
      env: {},
      logger: pino({ level: 'silent' }),
    });
  await runCommands(registerModelsCommands, { out, err }, openApp, ['models', ...args, '--data-dir', dataDir]);
}

function printed(): string {
  const text = out.join('\n');
  out.length = 0;
  return text;
}

describe('switchyard models alias', () => {
  it('creates, replaces, lists (as a table and as JSON) and removes aliases', async () => {
    await run('alias', 'list');
    expect(printed()).toBe('No model aliases yet. Add one with: switchyard models alias NAME PROVIDER/MODEL');

    await run('alias', 'gpt-5-codex', 'up/echo-1');
    expect(printed()).toBe('Created alias gpt-5-codex → up/echo-1.');
    await run('alias', 'gpt-5-codex', 'up/echo-1');
    expect(printed()).toBe('Alias gpt-5-codex already points to up/echo-1.');
    await run('alias', 'gpt-5-codex', 'up/echo-2');
    expect(printed()).toBe('Alias gpt-5-codex now points to up/echo-2 (it pointed to up/echo-1).');
    await run('alias', 'set', 'claude-haiku-4-5', 'up/echo-1');
    expect(printed()).toBe('Created alias claude-haiku-4-5 → up/echo-1.');
    expect(err).toEqual([]);

    await run('alias', 'list');
    expect(printed()).toMatch(
      /^ALIAS\s+TARGET\s+CREATED\nclaude-haiku-4-5\s+up\/echo-1\s+\S+Z\ngpt-5-codex\s+up\/echo-2\s+\S+Z$/,
    );
    await run('alias', 'list', '--json');
    expect(JSON.parse(printed())).toEqual([
      { name: 'claude-haiku-4-5', target: 'up/echo-1', created_at: expect.any(String) },
      { name: 'gpt-5-codex', target: 'up/echo-2', created_at: expect.any(String) },
    ]);

    await run('alias', 'remove', 'gpt-5-codex');
    expect(printed()).toBe('Removed alias gpt-5-codex.');
    await expect(run('alias', 'remove', 'gpt-5-codex')).rejects.toThrow('No model alias "gpt-5-codex".');
  });

  it('refuses a bad name or a target that is not <provider>/<model>, and warns about an unknown provider', async () => {
    await expect(run('alias', 'fast', 'gpt-4o')).rejects.toThrow(/must be "<provider>\/<model>"/);
    await expect(run('alias', 'a b', 'up/echo-1')).rejects.toThrow(/cannot be an alias name/);
    await run('alias', 'later', 'nope/model-x');
    expect(printed()).toBe('Created alias later → nope/model-x.');
    expect(err).toEqual([
      'warning: there is no provider "nope" here (providers: up); requests to the alias get a 404 until there is.',
    ]);
  });
});

describe('switchyard models list', () => {
  it('lists every provider’s models as <provider>/<model>, as a table and as JSON', async () => {
    await run('list');
    expect(printed()).toMatch(/^MODEL\s+NAME\s+CONTEXT\nup\/echo-1\s+echo-1\s+-\nup\/echo-2\s+echo-2\s+-$/);
    await run('list', '--json');
    expect(JSON.parse(printed())).toEqual([
      expect.objectContaining({ id: 'up/echo-1' }),
      expect.objectContaining({ id: 'up/echo-2' }),
    ]);
  });
});
