// Model aliases over a real store: what may be an alias, how the registry makes names canonical, and that a lookup
// reads the table only when the database changed (an alias set by another process included).

import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { useStoreEachTest } from '../../test/support/store-each-test.js';
import { singleTarget, type AliasGroup } from '../../shared/api/index.js';
import type { Store } from '../store/index.js';
import { ModelAliases } from './model-aliases.js';
import { ProviderRegistry } from './registry.js';
import { rejection, thrown } from './test-support.js';

const temp = useStoreEachTest();
let store: Store;
let aliases: ModelAliases;
let tableReads: number;

beforeEach(() => {
  store = temp.store;
  tableReads = 0;
  const counted = {
    listModelAliases: () => (tableReads++, store.listModelAliases()),
    setModelAlias: store.setModelAlias.bind(store),
    removeModelAlias: store.removeModelAlias.bind(store),
    changeVersion: store.changeVersion.bind(store),
  };
  aliases = new ModelAliases(counted, { now: () => Date.parse('2026-03-01T00:00:00Z') });
});

function registry(withAliases = true): ProviderRegistry {
  const source = { listProviders: () => [], getApiKey: async () => null, changeVersion: () => 1 };
  return new ProviderRegistry({
    source,
    aliases: withAliases ? aliases : undefined,
    adapters: [],
    logger: pino({ level: 'silent' }),
  });
}

describe('ModelAliases', () => {
  it('creates, says what it replaced, lists and removes', async () => {
    expect(await aliases.set('gpt-5-codex', 'openai/gpt-5')).toEqual({
      alias: {
        name: 'gpt-5-codex',
        target: 'openai/gpt-5',
        ...singleTarget('openai/gpt-5'),
        created_at: '2026-03-01T00:00:00.000Z',
      },
      previous: undefined,
    });
    expect((await aliases.set('gpt-5-codex', 'local/qwen3-coder:30b')).previous?.target).toBe('openai/gpt-5');
    expect(aliases.list()).toEqual([
      {
        name: 'gpt-5-codex',
        target: 'local/qwen3-coder:30b',
        ...singleTarget('local/qwen3-coder:30b'),
        created_at: '2026-03-01T00:00:00.000Z',
      },
    ]);
    expect(await aliases.remove('gpt-5-codex')).toBe(true);
    expect(await aliases.remove('gpt-5-codex')).toBe(false);
  });

  it.each([
    ['claude-3-5-haiku@20241022', 'anthropic/claude-3-5-haiku-20241022'],
    ['qwen3:8b', 'ollama/qwen3:8b'],
    ['Gemini_2.5-pro', 'openrouter/google/gemini-2.5-pro'],
    ['x'.repeat(100), 'openai/gpt-4o'],
  ])('accepts the name %j', async (name, target) => {
    expect((await aliases.set(name, target)).alias.target).toBe(target);
  });

  it.each([
    ['openai/gpt-4o', 'openai/gpt-4o', /has a "\/"/],
    ['', 'openai/gpt-4o', /letters, digits/],
    ['-dash-first', 'openai/gpt-4o', /starting with a letter or digit/],
    ['with space', 'openai/gpt-4o', /cannot be an alias name/],
    ['x'.repeat(101), 'openai/gpt-4o', /1–100/],
    ['fast', 'gpt-4o', /must be "<provider>\/<model>".*cannot point to another alias/],
    ['fast', 'openai/', /must be "<provider>\/<model>"/],
    ['fast', '/gpt-4o', /must be "<provider>\/<model>"/],
    ['fast', 'open ai/gpt-4o', /must be "<provider>\/<model>"/],
  ])('refuses the name %j with target %j, with a 400', async (name, target, message) => {
    const error = await rejection(() => aliases.set(name, target));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
    expect(aliases.list()).toEqual([]);
  });

  it('keeps a group: its targets, strategy and weights, the first target as `target`', async () => {
    const group = { targets: ['a/m1', 'b/m2', 'c/m3'], strategy: 'weighted' as const, weights: [3, 1, 0.5] };
    await aliases.set('team', group);
    expect(aliases.list()).toEqual([
      { name: 'team', target: 'a/m1', ...group, created_at: '2026-03-01T00:00:00.000Z' },
    ]);
    expect(aliases.groupOf('team')).toMatchObject(group);
    expect(aliases.targetOf('team')).toBe('a/m1');
    const { previous, alias } = await aliases.set('team', 'd/m4');
    expect(previous).toMatchObject(group);
    expect(alias).toMatchObject({ target: 'd/m4', ...singleTarget('d/m4') });
    expect(aliases.groupOf('team')).toEqual(expect.objectContaining(singleTarget('d/m4')));
  });

  it.each([
    [{ targets: [], strategy: 'ordered', weights: null }, /at least one target/],
    [{ targets: ['a/m', 'a/m'], strategy: 'ordered', weights: null }, /"a\/m" is named twice/],
    [{ targets: ['a/m', 'nope'], strategy: 'ordered', weights: null }, /"nope" must be "<provider>\/<model>"/],
    [
      { targets: ['a/m', 'b/m'], strategy: 'fastest', weights: null },
      /strategy "fastest" is none of ordered, weighted/,
    ],
    [{ targets: ['a/m', 'b/m'], strategy: 'ordered', weights: [1, 2] }, /only with the strategy "weighted"/],
    [{ targets: ['a/m', 'b/m'], strategy: 'weighted', weights: [1] }, /1 weights for 2 targets/],
    [{ targets: ['a/m', 'b/m'], strategy: 'weighted', weights: [1, 0] }, /weight 0 is not a positive number/],
    [{ targets: ['a/m', 'b/m'], strategy: 'weighted', weights: [1, -2] }, /weight -2 is not a positive number/],
  ])('refuses the group %j with a 400', async (group, message) => {
    const error = await rejection(() => aliases.set('team', group as AliasGroup));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
    expect(aliases.list()).toEqual([]);
  });

  it('reads the table again only when the database changed, in this process or another', async () => {
    await aliases.set('fast', 'openai/gpt-4o-mini');
    expect(aliases.targetOf('fast')).toBe('openai/gpt-4o-mini');
    expect(aliases.targetOf('slow')).toBeUndefined();
    expect(aliases.targetOf('fast')).toBe('openai/gpt-4o-mini');
    expect(tableReads).toBe(1);

    await temp.openAnother().setModelAlias('slow', 'anthropic/claude-opus-4', Date.now());
    expect(aliases.targetOf('slow')).toBe('anthropic/claude-opus-4');
    expect(tableReads).toBe(2);
  });
});

describe('ProviderRegistry.canonicalModel', () => {
  it('replaces an alias by its target and keeps a <provider>/<model> name without looking at aliases', async () => {
    await aliases.set('claude-sonnet-4-5', 'openai/gpt-4o');
    const providers = registry();
    expect(providers.canonicalModel('claude-sonnet-4-5')).toBe('openai/gpt-4o');
    const reads = tableReads;
    expect(providers.canonicalModel('anthropic/claude-sonnet-4-5')).toBe('anthropic/claude-sonnet-4-5');
    // A malformed id is left for resolve() to judge with its 400.
    expect(providers.canonicalModel('/gpt-4o')).toBe('/gpt-4o');
    expect(tableReads).toBe(reads);
    expect(providers.listAliases().map((alias) => alias.name)).toEqual(['claude-sonnet-4-5']);
  });

  it('keeps a group of several targets as its name (planned per request) and replaces a one-target alias', async () => {
    await aliases.set('team', { targets: ['a/m1', 'b/m2'], strategy: 'ordered', weights: null });
    await aliases.set('solo', { targets: ['a/m1'], strategy: 'least-busy', weights: null });
    const providers = registry();
    expect(providers.canonicalModel('team')).toBe('team');
    expect(providers.canonicalModel('solo')).toBe('a/m1');
    expect(providers.aliasGroup('team')?.targets).toEqual(['a/m1', 'b/m2']);
  });

  it('answers a name that is neither with a 404 naming both ways to fix it', () => {
    for (const providers of [registry(), registry(false)]) {
      const error = thrown(() => providers.canonicalModel('gpt-5-codex'));
      expect(error.status).toBe(404);
      expect(error.message).toBe(
        'Model "gpt-5-codex" is neither an alias nor "<provider>/<model>". Name a model as <provider>/<model> ' +
          '(GET /v1/models lists them), or make "gpt-5-codex" an alias: ' +
          'switchyard models alias gpt-5-codex PROVIDER/MODEL (or in the Providers screen).',
      );
    }
  });

  it('suggests no alias a name cannot be, and cuts a long name short', () => {
    const spaced = thrown(() => registry().canonicalModel('gpt 4o'));
    expect(spaced.status).toBe(404);
    expect(spaced.message).toBe(
      'Model "gpt 4o" is neither an alias nor "<provider>/<model>". Name a model as <provider>/<model> ' +
        '(GET /v1/models lists them); an alias name would use 1–100 letters, digits, ".", "_", "-", ":" or "@", ' +
        'starting with a letter or digit.',
    );
    const long = thrown(() => registry().canonicalModel('x'.repeat(100_000)));
    expect(long.status).toBe(404);
    expect(long.message).toContain(`Model "${'x'.repeat(100)}…" is neither`);
    expect(long.message.length).toBeLessThan(400);
  });
});
