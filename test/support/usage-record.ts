// A usage row with plausible defaults (a finished, priced, non-streamed request of `up/m`), for tests that care about
// a few of its fields.

import type { UsageRecord } from '../../shared/api/index.js';

export function usageRecord(fields: Partial<UsageRecord> & Pick<UsageRecord, 'id' | 'key_id'>): UsageRecord {
  return {
    created_at: Date.now(),
    app_title: null,
    app_referer: null,
    model: 'up/m',
    provider: 'up',
    streamed: false,
    status: 200,
    finish_reason: 'stop',
    prompt_tokens: 1,
    completion_tokens: 1,
    cached_tokens: 0,
    reasoning_tokens: 0,
    cost: 0,
    latency_ms: 1,
    ttft_ms: null,
    error: null,
    unpriced: false,
    ...fields,
  };
}
