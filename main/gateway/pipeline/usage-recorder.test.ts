import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../shared/api/index.js';
import type { FastifyRequest } from 'fastify';
import { appTitleOf } from '../http/caller.js';
import { UsageRecorder } from './usage-recorder.js';

const base = {
  id: 'gen-1',
  created_at: 0,
  key_id: 'key-1',
  app_title: null,
  app_referer: null,
  model: 'p/m',
  streamed: true,
};

describe('UsageRecorder', () => {
  it('writes one row per request, the first outcome, however often a path records', () => {
    const rows: UsageRecord[] = [];
    const recorder = new UsageRecorder({ record: (row) => rows.push(row) }, pino({ level: 'silent' }), base);
    recorder.provider = 'p';
    recorder.record({
      status: 200,
      finishReason: 'stop',
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    // A later failure path (the caller leaving after the last chunk) must not add or replace the row.
    recorder.record({ status: 499, finishReason: 'cancelled' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 200, finish_reason: 'stop', prompt_tokens: 3, completion_tokens: 2 });
  });

  it('keeps serving when the usage sink throws, and still records only once', () => {
    let calls = 0;
    const recorder = new UsageRecorder(
      {
        record: () => {
          calls += 1;
          throw new Error('disk full');
        },
      },
      pino({ level: 'silent' }),
      base,
    );
    expect(() => recorder.record({ status: 200, finishReason: 'stop' })).not.toThrow();
    recorder.record({ status: 200, finishReason: 'stop' });
    expect(calls).toBe(1);
  });
});

describe('appTitleOf', () => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

  it('names the app from X-Title, or from X-OpenRouter-Title as OpenRouter’s SDK sends it', () => {
    expect(appTitleOf(request({ 'x-title': 'My App' }))).toBe('My App');
    expect(appTitleOf(request({ 'x-openrouter-title': 'SDK App' }))).toBe('SDK App');
    expect(appTitleOf(request({ 'x-title': 'Mine', 'x-openrouter-title': 'Other' }))).toBe('Mine');
    expect(appTitleOf(request({}))).toBeNull();
  });
});
