// What the response cache does for one request (decision 031): its settings, what the caller's headers ask, and
// the key an answer is kept under, a SHA-256 of the scope and every request field that changes the answer (the
// model as the caller named it), never the prompt itself.

import { createHash } from 'node:crypto';
import type { ChatRequest, ResponseCacheScope, UsageCacheResult } from '../../../shared/api/index.js';
import type { AdapterCompletion } from '../../providers/index.js';

export type { ResponseCacheScope };

export interface ResponseCacheSettings {
  /** How long an answer is served from the cache; 0 turns the cache off. */
  ttlSeconds: number;
  scope: ResponseCacheScope;
  maxEntries: number;
  maxBytes: number;
}

/** The response cache over its table; settings() is asked per request. */
export interface GatewayResponseCache {
  settings(): ResponseCacheSettings;
  read(key: string, now: number): Promise<{ body: string } | undefined>;
  write(
    row: { key: string; body: string; createdAt: number; expiresAt: number },
    limits: { maxEntries: number; maxBytes: number },
  ): Promise<void>;
}

export const defaultResponseCacheLimits = { maxEntries: 10_000, maxBytes: 256 * 1024 * 1024 } as const;

/** What the caller asked of the cache in its headers. */
export interface CacheDirectives {
  /** `Cache-Control: no-cache`: do not answer from the cache. */
  noLookup: boolean;
  /** `Cache-Control: no-store`: do not store the answer. */
  noStore: boolean;
  /** `X-Switchyard-Cache: force`: cache a sampled answer (temperature above 0, unset, or n > 1). */
  force: boolean;
}

export function cacheDirectivesOf(cacheControl: string | null, switchyardCache: string | null): CacheDirectives {
  const directives = new Set(
    (cacheControl ?? '')
      .toLowerCase()
      .split(',')
      .map((part) => part.trim()),
  );
  return {
    noLookup: directives.has('no-cache'),
    noStore: directives.has('no-store'),
    force: switchyardCache?.trim().toLowerCase() === 'force',
  };
}

/** An answer as the cache keeps it. */
export interface CachedAnswer {
  /** The `<provider>/<model>` that answered. */
  model: string;
  provider: string;
  completion: AdapterCompletion;
}

/** What the cache does for one generation. */
export interface CachePlan {
  result: UsageCacheResult;
  key: string;
  /** Store the answer once it is whole. */
  write: boolean;
  hit?: CachedAnswer;
}

// Fields that do not change the answer: how it is delivered, who the end user is, what is noted about it.
const notInKey = new Set([
  'stream',
  'stream_options',
  'user',
  'metadata',
  'store',
  'safety_identifier',
  'prompt_cache_key',
]);

/** Hex SHA-256 of the scope and the request's answer-changing fields (the model as the caller named it). */
export function cacheKeyOf(request: ChatRequest, scope: string): string {
  const hash = createHash('sha256');
  hash.update(`switchyard-response-cache-1\n${scope}\n`);
  hash.update(stableJson(request, true));
  return hash.digest('hex');
}

function stableJson(value: unknown, top = false): string {
  if (Array.isArray(value)) return `[${value.map((item) => stableJson(item)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([name, field]) => field !== undefined && !(top && notInKey.has(name)))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${stableJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
