// GET /v1/models in Anthropic's shape, for a caller that sends `anthropic-version` (Claude Code discovers a
// gateway's models this way): `{data: [{type: 'model', id, display_name, created_at}], has_more, first_id,
// last_id}`, paged by `limit` and `after_id` / `before_id` as Anthropic's API pages it. The entries are the
// catalogue the key may use (aliases first), as GET /models lists it in OpenRouter's shape.

import { ApiError } from '../../../../shared/api/index.js';

export interface AnthropicModelEntry {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
}

export interface AnthropicModelList {
  data: AnthropicModelEntry[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

/** Whether a GET /models asks for Anthropic's shape. */
export function wantsAnthropicModelList(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['anthropic-version'] !== undefined;
}

function queryText(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Anthropic's default page size and its largest. */
const defaultLimit = 20;
const maxLimit = 1000;

export function anthropicModelList(
  models: readonly { id: string; name: string; created: number }[],
  query: Record<string, unknown>,
): AnthropicModelList {
  const limitText = queryText(query, 'limit');
  const limit = limitText === undefined ? defaultLimit : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    throw new ApiError(400, `limit: must be a whole number from 1 to ${maxLimit}.`);
  }
  const entries = models.map((model): AnthropicModelEntry => ({
    type: 'model',
    id: model.id,
    display_name: model.name,
    created_at: new Date(model.created * 1000).toISOString(),
  }));
  const afterId = queryText(query, 'after_id');
  const beforeId = queryText(query, 'before_id');
  let start = 0;
  let end = entries.length;
  if (afterId !== undefined) start = entries.findIndex((entry) => entry.id === afterId) + 1;
  if (beforeId !== undefined)
    end = Math.max(
      0,
      entries.findIndex((entry) => entry.id === beforeId),
    );
  const page =
    beforeId !== undefined ? entries.slice(Math.max(start, end - limit), end) : entries.slice(start, start + limit);
  const hasMore = beforeId !== undefined ? end - limit > start : start + limit < end;
  return { data: page, has_more: hasMore, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null };
}
