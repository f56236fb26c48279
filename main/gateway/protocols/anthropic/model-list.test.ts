// GET /v1/models in Anthropic's shape, without a server: entries and paging.

import { describe, expect, it } from 'vitest';
import { anthropicModelList, wantsAnthropicModelList } from './model-list.js';

const models = ['a/1', 'a/2', 'b/3'].map((id) => ({ id, name: `Model ${id}`, created: 1_700_000_000 }));

describe('anthropicModelList', () => {
  it('lists models as Anthropic does', () => {
    expect(anthropicModelList(models, {})).toEqual({
      data: models.map((model) => ({
        type: 'model',
        id: model.id,
        display_name: model.name,
        created_at: '2023-11-14T22:13:20.000Z',
      })),
      has_more: false,
      first_id: 'a/1',
      last_id: 'b/3',
    });
  });

  it('pages by limit, after_id and before_id, and refuses a bad limit', () => {
    const first = anthropicModelList(models, { limit: '2' });
    expect([first.data.map((model) => model.id), first.has_more]).toEqual([['a/1', 'a/2'], true]);
    const next = anthropicModelList(models, { limit: '2', after_id: 'a/2' });
    expect([next.data.map((model) => model.id), next.has_more]).toEqual([['b/3'], false]);
    const before = anthropicModelList(models, { limit: '1', before_id: 'b/3' });
    expect([before.data.map((model) => model.id), before.has_more]).toEqual([['a/2'], true]);
    expect(() => anthropicModelList(models, { limit: '0' })).toThrow(/limit/);
  });

  it('is asked for with anthropic-version', () => {
    expect(wantsAnthropicModelList({ 'anthropic-version': '2023-06-01' })).toBe(true);
    expect(wantsAnthropicModelList({})).toBe(false);
  });
});
