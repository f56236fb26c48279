// GET /v1beta/models in Google's shape: `{models: [{name: 'models/<id>', displayName, inputTokenLimit,
// supportedGenerationMethods}], nextPageToken}`, the models the calling key may use, the user's aliases first (an
// alias is listed when its target is), paged by `pageSize` and `pageToken` as Google pages.

import { ApiError, type ModelAliasInfo, type ModelInfo } from '../../../../shared/api/index.js';

export interface GeminiModel {
  name: string;
  baseModelId: string;
  displayName: string;
  description?: string;
  inputTokenLimit?: number;
  supportedGenerationMethods: string[];
}

export interface GeminiModelPage {
  models: GeminiModel[];
  nextPageToken?: string;
}

/** What the gateway serves for every model, whatever its kind. */
const generationMethods = ['generateContent', 'streamGenerateContent', 'countTokens'];

/** Google's default page size, and its largest. */
const defaultPageSize = 50;
const maxPageSize = 1000;

function entryOf(id: string, model: ModelInfo, description?: string): GeminiModel {
  const entry: GeminiModel = {
    name: `models/${id}`,
    baseModelId: id,
    displayName: id === model.id ? model.name : id,
    supportedGenerationMethods: generationMethods,
  };
  if (description) entry.description = description;
  if (model.context_length) entry.inputTokenLimit = model.context_length;
  return entry;
}

/** The entries: each alias whose target is listed (under the alias's name), then the models. */
export function geminiModelEntries(models: readonly ModelInfo[], aliases: readonly ModelAliasInfo[]): GeminiModel[] {
  const byId = new Map(models.map((model) => [model.id, model]));
  const aliasEntries = aliases.flatMap((alias) => {
    const target = byId.get(alias.target);
    return target ? [entryOf(alias.name, target, `An alias of ${alias.target}.`)] : [];
  });
  return [...aliasEntries, ...models.map((model) => entryOf(model.id, model))];
}

function whole(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new ApiError(400, `Invalid request: ${name} must be a whole number from 0.`);
  return Number(value);
}

/** One page; `pageToken` is where the page starts (it came from the previous page's nextPageToken). */
export function geminiModelPage(
  entries: readonly GeminiModel[],
  query: { pageSize?: string; pageToken?: string },
): GeminiModelPage {
  const size = Math.min(whole(query.pageSize, 'pageSize') || defaultPageSize, maxPageSize);
  const start = whole(query.pageToken, 'pageToken') ?? 0;
  const page: GeminiModelPage = { models: entries.slice(start, start + size) };
  if (start + size < entries.length) page.nextPageToken = String(start + size);
  return page;
}
