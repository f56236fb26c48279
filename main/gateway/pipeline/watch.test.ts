// Watchers follow a generation without changing it: each attempt's start and outcome, the headers an attempt adds
// upstream, and the one usage row it ends with.

import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../shared/api/index.js';
import { UpstreamError, type AdapterCompletion, type ProviderAdapter, type StreamPart } from '../../providers/index.js';
import { scriptedAdapter, testGeneration, testLogger, testProvider } from './test-support.js';
import { relayStream } from './stream-relay.js';
import { UsageRecorder } from './usage-recorder.js';
import { answerWhole } from './whole-answer.js';
import { watchesOf, type GenerationWatcher } from './watch.js';

const answer: AdapterCompletion = {
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

const provider = testProvider;

/** A watcher writing down what it is told, adding a header to every attempt. */
function recordingWatcher() {
  const told: string[] = [];
  const rows: UsageRecord[] = [];
  const watcher: GenerationWatcher = {
    started: (generation) => {
      told.push(`started ${generation.model} on ${generation.route}`);
      return {
        attempt: (model, providerId) => {
          told.push(`attempt ${model} of ${providerId}`);
          return {
            upstreamHeaders: { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` },
            answered: () => told.push(`answered ${model}`),
            failed: (error) => told.push(`failed ${model} ${(error as UpstreamError).status}`),
          };
        },
        ended: (row) => rows.push(row),
      };
    },
  };
  return { watcher, told, rows };
}

function watchedGeneration(adapter: ProviderAdapter, watcher: GenerationWatcher, models: string[]) {
  const setup = testGeneration(adapter, provider, { model: models[0], models: models.slice(1) });
  const { generation } = setup;
  generation.watches = watchesOf([watcher], {
    id: generation.id,
    route: '/v1/chat/completions',
    keyId: generation.keyId,
    model: generation.request.model,
    stream: true,
    traceParent: null,
    request: generation.request,
  });
  generation.recorder = new UsageRecorder(
    { record: (row) => setup.rows.push(row) },
    testLogger,
    { id: 'gen-1', created_at: 0, key_id: 'k', app_title: null, app_referer: null, model: 'p/a', streamed: true },
    generation.watches,
  );
  return setup;
}

describe('generation watchers', () => {
  it('are told of each attempt and its outcome, add headers upstream, and get the one usage row', async () => {
    const { adapter, targets } = scriptedAdapter({
      stream: async (target) => {
        if (target.model === 'a')
          throw new UpstreamError({ status: 400, message: 'bad', provider: 'p', upstreamStatus: 400 });
        return (async function* (): AsyncGenerator<StreamPart> {
          yield { type: 'delta', index: 0, delta: { content: 'hi' }, finish_reason: 'stop' };
        })();
      },
    });
    const { watcher, told, rows } = recordingWatcher();
    const { generation, context, rows: usageRows } = watchedGeneration(adapter, watcher, ['p/a', 'p/b']);
    const output = { opened: false, open() {}, async data() {}, async comment() {}, end() {}, abandon() {} };
    expect(await relayStream(generation, { ...context, keepAliveMs: 0 }, output)).toBeUndefined();
    expect(told).toEqual([
      'started p/a on /v1/chat/completions',
      'attempt p/a of p',
      'failed p/a 400',
      'attempt p/b of p',
      'answered p/b',
    ]);
    expect(targets).toHaveLength(2);
    for (const target of targets) {
      expect(target).toMatchObject({ extraHeaders: { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` } });
    }
    expect(rows).toEqual(usageRows);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 200, model: 'p/b' });
  });

  it('cost nothing when none is configured: no watches, no headers added, the usage row as before', async () => {
    expect(watchesOf(undefined, {} as never)).toHaveLength(0);
    expect(watchesOf([], {} as never)).toBe(watchesOf(undefined, {} as never));
    const { adapter, targets } = scriptedAdapter({ complete: async () => answer });
    const { generation, context, rows } = testGeneration(adapter, provider, { stream: false });
    expect(await answerWhole(generation, context)).toMatchObject({ kind: 'answer' });
    expect(targets[0]).not.toHaveProperty('extraHeaders');
    expect(rows).toHaveLength(1);
  });

  it('that throw do not break the answer', async () => {
    const { adapter } = scriptedAdapter({ complete: async () => answer });
    const throwing: GenerationWatcher = {
      started: () => ({
        ended: () => {
          throw new Error('watcher broke');
        },
      }),
    };
    const { generation, context, rows } = watchedGeneration(adapter, throwing, ['p/a']);
    generation.request.stream = false;
    expect(await answerWhole(generation, context)).toMatchObject({ kind: 'answer' });
    expect(rows).toHaveLength(1);
  });
});
