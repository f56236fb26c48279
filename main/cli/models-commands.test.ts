// `switchyard models …` (main/cli/models-commands.ts), run in-process with a fresh program, captured output and a
// real app on a temporary data dir in front of a fake upstream.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../test/support/fake-openai-upstream.js';
import { singleTarget } from '../../shared/api/index.js';
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
      { name: 'claude-haiku-4-5', target: 'up/echo-1', ...singleTarget('up/echo-1'), created_at: expect.any(String) },
      { name: 'gpt-5-codex', target: 'up/echo-2', ...singleTarget('up/echo-2'), created_at: expect.any(String) },
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

describe('switchyard models alias with several targets', () => {
  it('makes a group with a strategy and weights, shows it in the list and as JSON, and points it elsewhere', async () => {
    await run('alias', 'team', 'up/echo-1', 'up/echo-2', '--strategy', 'weighted', '--weights', '3,1');
    expect(printed()).toBe('Created alias team → up/echo-1, up/echo-2 (weighted 3,1).');
    await run('alias', 'list');
    expect(printed()).toMatch(/^ALIAS\s+TARGET\s+CREATED\nteam\s+up\/echo-1, up\/echo-2 \(weighted 3,1\)\s+\S+Z$/);
    await run('alias', 'list', '--json');
    expect(JSON.parse(printed())).toEqual([
      {
        name: 'team',
        target: 'up/echo-1',
        targets: ['up/echo-1', 'up/echo-2'],
        strategy: 'weighted',
        weights: [3, 1],
        created_at: expect.any(String),
      },
    ]);
    await run('alias', 'team', 'up/echo-2', 'up/echo-1', '--strategy', 'least-busy');
    expect(printed()).toBe(
      'Alias team now points to up/echo-2, up/echo-1 (least-busy) (it pointed to up/echo-1, up/echo-2 (weighted 3,1)).',
    );
    // --weights alone means weighted.
    await run('alias', 'team', 'up/echo-1', 'up/echo-2', '--weights', '1,2.5');
    expect(printed()).toMatch(/now points to up\/echo-1, up\/echo-2 \(weighted 1,2.5\)/);
    expect(err).toEqual([]);
  });

  it.each([
    [['team', 'up/echo-1', 'up/echo-2', '--weights', '3'], /1 weights for 2 targets/],
    [['team', 'up/echo-1', 'up/echo-2', '--weights', '3,0'], /expected positive numbers separated by commas/],
    [['team', 'up/echo-1', 'up/echo-2', '--weights', '3,x'], /expected positive numbers separated by commas/],
    [['team', 'up/echo-1', 'up/echo-2', '--strategy', 'cost', '--weights', '3,1'], /only with the strategy "weighted"/],
    [['team', 'up/echo-1', 'up/echo-2', '--strategy', 'fastest'], /Allowed choices are ordered, weighted/],
    [['team', 'up/echo-1', 'echo-2'], /"echo-2" must be "<provider>\/<model>"/],
    [['team', 'up/echo-1', 'up/echo-1'], /"up\/echo-1" is named twice/],
  ])('refuses %j with a clear error', async (args, message) => {
    await expect(run('alias', ...args)).rejects.toThrow(message);
    await run('alias', 'list', '--json');
    expect(JSON.parse(printed())).toEqual([]);
  });

  it('warns once per unknown provider of a group', async () => {
    await run('alias', 'team', 'up/echo-1', 'nope/a', 'nope/b');
    expect(err).toEqual(['warning: there is no provider "nope" here (providers: up); the group skips it.']);
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
