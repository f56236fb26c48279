// The response cache before admission (decision 031): the answer looked up; a hit needs only the key's model rules
// (it costs no credits and counts against no limit), anything else is admitted as usual.

import { ApiError } from '../../../shared/api/index.js';
import type { ChatRequest } from '../../../shared/api/index.js';
import type { Outcome } from '../http/exchange.js';
import {
  cacheDirectivesOf,
  cacheKeyOf,
  type CachedAnswer,
  type CachePlan,
  type GatewayResponseCache,
  type ResponseCacheSettings,
} from './cache-plan.js';
import type { RequestContext } from './context.js';
import type { Generation } from './generation.js';
import { admitGeneration } from './start-generation.js';
import { failedBeforeAnswer } from './whole-answer.js';

/** Sampled answers differ from one call to the next: cached only when the caller forces it. */
function sampled(request: ChatRequest): boolean {
  // Unset temperature is the provider's default, above 0 for every provider Switchyard speaks to.
  return (
    request.temperature === undefined || request.temperature === null || request.temperature > 0 || (request.n ?? 1) > 1
  );
}

/**
 * The cache's part before admission: looks the answer up; a hit needs only the key's model rules (it costs no
 * credits and counts against no limit), anything else is admitted as usual. Sets generation.cache.
 */
export async function admitWithCache(generation: Generation, context: RequestContext): Promise<Outcome<never> | null> {
  const cache = context.deps.responseCache;
  const settings = cache?.settings();
  if (!cache || !settings || settings.ttlSeconds <= 0 || !generation.asSent)
    return admitGeneration(generation, context);
  const plan = await planOf(generation, cache, settings, context);
  generation.cache = plan;
  generation.recorder.cache = plan.result;
  if (!plan.hit) return admitGeneration(generation, context);
  const accounts = context.deps.accounts;
  const { request } = generation;
  for (const model of [request.model, ...(request.models ?? [])]) {
    if (accounts && !accounts.allowsModel(generation.keyId, model)) {
      const error = new ApiError(403, `This API key may not use the model "${model}".`, { model });
      return failedBeforeAnswer(generation, { providers: context.deps.providers, errors: context.errors }, error);
    }
  }
  return null;
}

async function planOf(
  generation: Generation,
  cache: GatewayResponseCache,
  settings: ResponseCacheSettings,
  context: RequestContext,
): Promise<CachePlan> {
  const directives = generation.cacheDirectives ?? cacheDirectivesOf(null, null);
  const key = cacheKeyOf(generation.asSent!, settings.scope === 'all' ? '*' : `key:${generation.keyId}`);
  if ((directives.noLookup && directives.noStore) || (sampled(generation.request) && !directives.force)) {
    return { result: 'bypass', key, write: false };
  }
  const write = !directives.noStore;
  if (directives.noLookup) return { result: 'miss', key, write };
  try {
    const row = await cache.read(key, Date.now());
    if (row) return { result: 'hit', key, write: false, hit: JSON.parse(row.body) as CachedAnswer };
  } catch (error) {
    context.deps.logger.warn({ err: (error as Error).message }, 'reading the response cache failed');
  }
  return { result: 'miss', key, write };
}
