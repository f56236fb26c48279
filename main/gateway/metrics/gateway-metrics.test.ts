// The registry after scripted generations: each watcher step in the order the pipeline takes it, on a clock the
// test moves, then the values a scrape would show.

import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../shared/api/index.js';
import { usageRecord } from '../../../test/support/usage-record.js';
import type { WatchedGeneration } from '../pipeline/watch.js';
import { GatewayMetrics, type GatewayMetricsOptions } from './gateway-metrics.js';

const route = '/api/v1/chat/completions';

function setUp(options: GatewayMetricsOptions = {}) {
  const clock = { now: 0 };
  const metrics = new GatewayMetrics({ now: () => clock.now, ...options });
  const start = (fields: Partial<WatchedGeneration> = {}) =>
    metrics.watcher.started({
      id: 'gen-1',
      route,
      keyId: 'key-1',
      model: 'up/m',
      stream: false,
      traceParent: null,
      request: {},
      ...fields,
    })!;
  /** The sum of the samples named `name` (a histogram's `_sum`, `_count` too) whose labels include `labels`. */
  const value = async (name: string, labels: Record<string, string> = {}): Promise<number | undefined> => {
    const samples = (await metrics.registry.getMetricsAsJSON()).flatMap((metric) =>
      (metric.values as { metricName?: string; labels: Record<string, unknown>; value: number }[]).filter(
        (sample) => (sample.metricName ?? metric.name) === name,
      ),
    );
    const matching = samples.filter((sample) =>
      Object.entries(labels).every(([label, wanted]) => String(sample.labels[label]) === wanted),
    );
    return matching.length > 0 ? matching.reduce((sum, sample) => sum + Number(sample.value), 0) : undefined;
  };
  return { clock, metrics, start, value };
}

const row = (fields: Partial<UsageRecord> = {}) => usageRecord({ id: 'gen-1', key_id: 'key-1', ...fields });

describe('GatewayMetrics', () => {
  it('counts a generation by route, model, provider, status and cache, with its tokens, cost and first token', async () => {
    const { start, value, metrics } = setUp();
    const watch = start();
    expect(await value('switchyard_in_flight_requests', { route })).toBe(1);
    watch.attempt!('up/m', 'up')!.answered();
    watch.ended!(row({ prompt_tokens: 11, completion_tokens: 3, cost: 0.25, ttft_ms: 400 }));
    const labels = { route, model: 'up/m', provider: 'up', status: '200', cache: 'none' };
    expect(await value('switchyard_requests_total', labels)).toBe(1);
    expect(await value('switchyard_in_flight_requests', { route })).toBe(0);
    expect(await value('switchyard_input_tokens_total', { model: 'up/m', provider: 'up' })).toBe(11);
    expect(await value('switchyard_output_tokens_total', { model: 'up/m' })).toBe(3);
    expect(await value('switchyard_cost_usd_total', { provider: 'up' })).toBe(0.25);
    expect(await value('switchyard_time_to_first_token_seconds_sum', { model: 'up/m' })).toBe(0.4);
    expect(await value('switchyard_upstream_attempts_total', { outcome: 'answered' })).toBe(1);
    expect(await value('switchyard_request_errors_total')).toBeUndefined();
    expect(await metrics.registry.metrics()).not.toContain('key-1');
  });

  it("measures added latency as the time before the answer less the upstream attempts' time", async () => {
    const { clock, start, value } = setUp();
    const watch = start();
    clock.now = 2; // validation, admission: the gateway's own
    const first = watch.attempt!('up/m', 'up')!;
    clock.now = 102; // the first attempt fails after 100 ms
    first.failed(new Error('503'));
    clock.now = 105; // retry wait and the next attempt's set-up: the gateway's own
    const second = watch.attempt!('up/m', 'up')!;
    clock.now = 405; // the second answers after 300 ms
    second.answered();
    clock.now = 5_000; // the stream goes on: the upstream's time, not the gateway's
    watch.ended!(row({ latency_ms: 5_000 }));
    expect(await value('switchyard_added_latency_seconds_sum', { route })).toBeCloseTo(0.005, 9);
    expect(await value('switchyard_added_latency_seconds_count', { route })).toBe(1);
    expect(await value('switchyard_request_duration_seconds_sum', { route })).toBe(5);
    expect(await value('switchyard_upstream_attempts_total', { outcome: 'failed' })).toBe(1);
  });

  it('counts rate-limit refusals, errors and failed streams; a made-up model is no label', async () => {
    const { start, value } = setUp();
    start().ended!(row({ status: 429, provider: null, finish_reason: null }));
    start({ model: 'nowhere/invented' }).ended!(row({ model: 'nowhere/invented', provider: null, status: 400 }));
    const streamed = start();
    streamed.attempt!('up/m', 'up')!.answered();
    streamed.ended!(row({ status: 200, finish_reason: 'error' }));
    const upstream429 = start();
    upstream429.attempt!('up/m', 'up')!.failed(new Error('429'));
    upstream429.ended!(row({ status: 429 }));
    expect(await value('switchyard_rate_limited_requests_total', { route })).toBe(1);
    expect(await value('switchyard_request_errors_total')).toBe(4);
    expect(await value('switchyard_request_errors_total', { model: 'other', provider: 'none', status: '400' })).toBe(1);
    expect(await value('switchyard_requests_total', { model: 'nowhere/invented' })).toBeUndefined();
  });

  it('bounds the model label: past the bound, models share `other`', async () => {
    const { start, value } = setUp();
    for (let index = 0; index < 205; index++) {
      const model = `up/m-${index}`;
      start({ model }).ended!(row({ model }));
    }
    expect(await value('switchyard_requests_total', { model: 'up/m-199' })).toBe(1);
    expect(await value('switchyard_requests_total', { model: 'other' })).toBe(5);
  });

  it("reads the cache's verdict from the row, and key ids only when asked", async () => {
    const { start, value } = setUp({ keyLabels: true });
    start().ended!({ ...row(), cache: 'hit' } as UsageRecord);
    expect(await value('switchyard_requests_total', { cache: 'hit', key_id: 'key-1' })).toBe(1);
  });

  it('shows each target’s health state at scrape time, and counts hub tool calls by server and outcome', async () => {
    const states = [{ model: 'up/m', provider: 'up', state: 'cooling_down' }];
    const { metrics, value } = setUp({ targetStates: () => states });
    expect(await value('switchyard_target_state', { model: 'up/m', state: 'cooling_down' })).toBe(1);
    states[0] = { model: 'up/m', provider: 'up', state: 'healthy' };
    expect(await value('switchyard_target_state', { state: 'cooling_down' })).toBeUndefined();
    expect(await value('switchyard_target_state', { state: 'healthy' })).toBe(1);
    metrics.toolCallObserved({ server: 'fs', error: null });
    metrics.toolCallObserved({ server: 'fs', error: 'no such file /home/secret.txt' });
    expect(await value('switchyard_mcp_tool_calls_total', { server: 'fs', outcome: 'ok' })).toBe(1);
    expect(await value('switchyard_mcp_tool_calls_total', { server: 'fs', outcome: 'error' })).toBe(1);
    expect(await metrics.registry.metrics()).not.toContain('secret.txt');
  });
});
