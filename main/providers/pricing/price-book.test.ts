import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, type Usage } from '../../../shared/api/index.js';
import { useStoreEachTest } from '../../../test/support/store-each-test.js';
import type { Store } from '../../store/index.js';
import { PriceBook } from './price-book.js';

const temp = useStoreEachTest();
let store: Store;
let book: PriceBook;

beforeEach(() => {
  store = temp.store;
  book = new PriceBook(store);
});

const usage = (prompt: number, completion: number, extra: Partial<Usage> = {}): Usage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  ...extra,
});
const target = (model: string) => ({ model, provider: model.split('/')[0]!, upstreamModel: null });

describe('PriceBook.costOf', () => {
  it('prices a model by its upstream name whatever the provider id, dated snapshots included', () => {
    const expected = { cost: 0.0000575, costNanos: 57_500, unpriced: false, source: 'builtin' };
    // 11 × $2.50/M + 3 × $10/M
    for (const model of ['openai/gpt-4o', 'myazure/gpt-4o', 'openrouter/openai/gpt-4o', 'openai/gpt-4o-2024-08-06']) {
      expect(book.costOf(target(model), usage(11, 3)), model).toEqual(expected);
    }
    expect(book.costOf(target('anthropic/claude-3.5-haiku'), usage(1_000_000, 0)).cost).toBe(0.8);
  });

  it('prefers the upstream-reported cost (OpenRouter), even 0, over any price', () => {
    const priced = book.costOf(target('openrouter/openai/gpt-4o'), usage(11, 3, { cost: 0.00123 }));
    expect(priced).toEqual({ cost: 0.00123, costNanos: 1_230_000, unpriced: false, source: 'upstream' });
    expect(book.costOf(target('x/unknown'), usage(5, 5, { cost: 0 }))).toMatchObject({ cost: 0, unpriced: false });
    // A nonsense figure is ignored.
    expect(book.costOf(target('openai/gpt-4o'), usage(11, 3, { cost: -1 })).source).toBe('builtin');
  });

  it('reports an unknown model as cost 0 and unpriced; no usage costs 0', () => {
    expect(book.costOf(target('local/llama3'), usage(100, 100))).toEqual({
      cost: 0,
      costNanos: 0,
      unpriced: true,
      source: null,
    });
    expect(book.costOf(target('openai/gpt-4o'), null)).toMatchObject({ costNanos: 0, unpriced: false });
  });

  it('uses overrides before the bundled table; a full id wins over an upstream name', async () => {
    await book.set('gpt-4o', { input: 1, output: 2 });
    await book.set('myazure/gpt-4o', { input: 10, output: 20 });
    expect(book.costOf(target('openai/gpt-4o'), usage(1000, 1000))).toMatchObject({
      costNanos: 3_000_000,
      source: 'override',
    });
    expect(book.costOf(target('myazure/gpt-4o'), usage(1000, 1000)).costNanos).toBe(30_000_000);
    expect(await book.unset('gpt-4o')).toBe(true);
    expect(await book.unset('gpt-4o')).toBe(false);
    expect(book.costOf(target('openai/gpt-4o'), usage(1000, 1000))).toMatchObject({
      costNanos: 12_500_000,
      source: 'builtin',
    });
  });

  it('prices cache reads and writes from an override, defaulting to the input price', async () => {
    await book.set('up/model', { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    const cached = usage(1000, 50, { prompt_tokens_details: { cached_tokens: 400, cache_write_tokens: 100 } });
    expect(book.costOf(target('up/model'), cached).costNanos).toBe(2_745_000);
    await book.set('up/model', { input: 3, output: 15 });
    expect(book.costOf(target('up/model'), cached).costNanos).toBe(3_750_000);
  });

  it('sees an override set by another process at the next request', async () => {
    expect(book.costOf(target('up/echo-1'), usage(1000, 0)).unpriced).toBe(true);
    await new PriceBook(temp.openAnother()).set('echo-1', { input: 5, output: 5 });
    expect(book.costOf(target('up/echo-1'), usage(1000, 0))).toMatchObject({ costNanos: 5_000_000, unpriced: false });
  });

  it('rejects bad names and prices with ApiError 400', async () => {
    await expect(book.set('', { input: 1, output: 1 })).rejects.toThrow(ApiError);
    await expect(book.set('a b', { input: 1, output: 1 })).rejects.toThrow(/without spaces/);
    await expect(book.set('m', { input: -1, output: 1 })).rejects.toThrow(/input price/);
    await expect(book.set('m', { input: 1, output: Number.NaN })).rejects.toThrow(/output price/);
    expect(store.listPrices()).toEqual([]);
  });

  it('lists overrides, then the bundled prices they do not replace, in USD per million tokens', async () => {
    await book.set('gpt-4o', { input: 3, output: 12, cacheRead: 1.5 });
    const list = book.list();
    expect(list[0]).toEqual({
      model: 'gpt-4o',
      source: 'override',
      input: 3,
      output: 12,
      cache_read: 1.5,
      cache_write: null,
    });
    expect(list.filter((price) => price.model === 'gpt-4o')).toHaveLength(1);
    expect(list).toContainEqual({
      model: 'claude-sonnet-4',
      source: 'builtin',
      input: 3,
      output: 15,
      cache_read: 0.3,
      cache_write: 3.75,
    });
  });
});

describe('the bundled table', () => {
  it('prices the flagship models of OpenAI, Anthropic and Google', () => {
    const models = [
      'openai/gpt-4o',
      'openai/gpt-4o-mini',
      'openai/gpt-4.1',
      'openai/gpt-4.1-mini',
      'openai/gpt-4.1-nano',
      'openai/o3',
      'openai/o4-mini',
      'anthropic/claude-sonnet-4-20250514',
      'anthropic/claude-opus-4-20250514',
      'anthropic/claude-3-5-haiku-20241022',
      'google/gemini-2.5-pro',
      'google/gemini-2.5-flash',
    ];
    for (const model of models) expect(book.costOf(target(model), usage(1, 1)).unpriced, model).toBe(false);
    // The figures of the notes (section 6), per million tokens.
    const perMillion = (model: string, part: Partial<Usage>) =>
      book.costOf(target(model), { ...usage(0, 0), ...part }).cost;
    expect(perMillion('openai/gpt-4o', { prompt_tokens: 1e6 })).toBe(2.5);
    expect(perMillion('openai/gpt-4o', { completion_tokens: 1e6 })).toBe(10);
    expect(perMillion('openai/gpt-4o', { prompt_tokens: 1e6, prompt_tokens_details: { cached_tokens: 1e6 } })).toBe(
      1.25,
    );
    expect(perMillion('openai/gpt-4o-mini', { prompt_tokens: 1e6 })).toBe(0.15);
    expect(perMillion('openai/gpt-4o-mini', { completion_tokens: 1e6 })).toBe(0.6);
    expect(
      perMillion('openai/gpt-4o-mini', { prompt_tokens: 1e6, prompt_tokens_details: { cached_tokens: 1e6 } }),
    ).toBe(0.075);
    expect(
      perMillion('anthropic/claude-sonnet-4', {
        prompt_tokens: 1e6,
        prompt_tokens_details: { cache_write_tokens: 1e6 },
      }),
    ).toBe(3.75);
    expect(
      perMillion('google/gemini-2.5-flash', { prompt_tokens: 1e6, prompt_tokens_details: { cached_tokens: 1e6 } }),
    ).toBe(0.03);
    expect(perMillion('google/gemini-2.5-flash', { completion_tokens: 1e6 })).toBe(2.5);
  });
});
