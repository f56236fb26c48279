// The chat route's work without a server: a Generation over a scripted adapter, answered whole or relayed to a
// recording StreamOutput.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ChatCompletionChunk, type ChatRequest } from '../../../shared/api/index.js';
import { UpstreamError, type ProviderAdapter, type StreamPart } from '../../providers/index.js';
import { CallerGoneError } from '../http/in-flight.js';
import { scriptedAdapter, testGeneration, testProvider } from './test-support.js';
import { processingComment, type StreamOutput } from '../http/exchange.js';
import { relayStream } from './stream-relay.js';
import { answerWhole } from './whole-answer.js';

const provider = testProvider;

afterEach(() => {
  vi.useRealTimers();
});

function setup(adapter: ProviderAdapter, request: Partial<ChatRequest> = {}) {
  return testGeneration(adapter, provider, request, ['sk-sy-v1-caller-secret-0123456789']);
}

class RecordingOutput implements StreamOutput {
  opened = false;
  ended = false;
  abandoned = false;
  readonly chunks: ChatCompletionChunk[] = [];
  readonly comments: string[] = [];
  open() {
    this.opened = true;
  }
  async data(chunk: ChatCompletionChunk) {
    this.chunks.push(chunk);
  }
  async comment(text: string) {
    this.comments.push(text);
  }
  end() {
    this.ended = true;
  }
  abandon() {
    this.abandoned = true;
  }
}

async function* parts(...items: StreamPart[]): AsyncGenerator<StreamPart> {
  yield* items;
}

const usage = { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 };

describe('relayStream', () => {
  it('relays parts as chunks with one id, the role first and the usage in the final chunk, and writes one row', async () => {
    const { adapter, targets } = scriptedAdapter({
      stream: async () =>
        parts(
          { type: 'delta', index: 0, delta: { content: 'Hel' } },
          { type: 'delta', index: 0, delta: { content: 'lo' } },
          { type: 'delta', index: 0, delta: {}, finish_reason: 'stop' },
          { type: 'usage', usage },
        ),
    });
    const { generation, context, rows } = setup(adapter);
    const output = new RecordingOutput();
    expect(await relayStream(generation, { ...context, keepAliveMs: 0 }, output)).toBeUndefined();
    expect(output.opened && output.ended).toBe(true);
    expect(output.chunks.map((chunk) => chunk.choices[0]?.delta.content ?? null)).toEqual(['Hel', 'lo', null]);
    expect(output.chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(new Set(output.chunks.map((chunk) => chunk.id))).toEqual(new Set(['gen-1']));
    expect(output.chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }], usage: { total_tokens: 6 } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 200, finish_reason: 'stop', provider: 'p', prompt_tokens: 4 });
    // The caller's own key travels with the target, to be scrubbed from whatever the upstream echoes.
    expect(targets[0]).toMatchObject({ callerSecrets: ['sk-sy-v1-caller-secret-0123456789'] });
  });

  it('answers an error before the stream opened as an ordinary error outcome, with nothing written', async () => {
    const { adapter } = scriptedAdapter({
      stream: async () => {
        throw new UpstreamError({ status: 400, message: 'bad', provider: 'p', upstreamStatus: 400 });
      },
    });
    const { generation, context, rows } = setup(adapter);
    const output = new RecordingOutput();
    const outcome = await relayStream(generation, { ...context, keepAliveMs: 0 }, output);
    expect(outcome).toMatchObject({ kind: 'error', error: { status: 400, message: 'bad' } });
    expect(output.opened).toBe(false);
    expect(rows[0]).toMatchObject({ status: 400, error: 'bad' });
  });

  it('opens early with a processing comment while the upstream is slow, then fails inside the stream', async () => {
    vi.useFakeTimers();
    let fail!: (error: Error) => void;
    const { adapter } = scriptedAdapter({
      stream: () => new Promise((_resolve, reject) => (fail = reject)),
    });
    const { generation, context, rows } = setup(adapter);
    const output = new RecordingOutput();
    const relayed = relayStream(generation, { ...context, keepAliveMs: 1_000 }, output);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(output.opened).toBe(true);
    expect(output.comments).toEqual([processingComment]);
    fail(new UpstreamError({ status: 503, message: 'overloaded', provider: 'p', retryable: false }));
    expect(await relayed).toBeUndefined();
    expect(output.chunks.at(-1)).toMatchObject({
      error: { code: 503, message: 'overloaded' },
      choices: [{ finish_reason: 'error' }],
    });
    expect(output.ended).toBe(true);
    expect(rows[0]).toMatchObject({ status: 200, finish_reason: 'error' });
  });

  /** A generation whose upstream streams `before`, then its caller leaves, then one more part arrives. */
  function callerLeavesAfter(...before: StreamPart[]) {
    const leaving: { controller?: AbortController } = {};
    const { adapter } = scriptedAdapter({
      stream: async () =>
        (async function* () {
          yield* before;
          leaving.controller!.abort(new CallerGoneError());
          yield { type: 'delta', index: 0, delta: { content: 'b' } } as StreamPart;
        })(),
    });
    const harness = setup(adapter);
    leaving.controller = harness.controller;
    return harness;
  }

  it('abandons the stream when the caller leaves mid-way, and records the request as cancelled', async () => {
    const { generation, context, rows } = callerLeavesAfter({ type: 'delta', index: 0, delta: { content: 'a' } });
    const output = new RecordingOutput();
    await relayStream(generation, { ...context, keepAliveMs: 0 }, output);
    expect(output.abandoned).toBe(true);
    expect(output.ended).toBe(false);
    // No usage came: the row carries an estimate of the prompt and of what was generated, marked as such.
    expect(rows[0]).toMatchObject({ finish_reason: 'cancelled', estimated: true, completion_tokens: 1 });
    expect(rows[0]!.prompt_tokens).toBeGreaterThan(0);
  });

  it('keeps the usage the upstream reported before the caller left, not an estimate', async () => {
    const { generation, context, rows } = callerLeavesAfter(
      { type: 'delta', index: 0, delta: { content: 'a' } },
      { type: 'usage', usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 } },
    );
    await relayStream(generation, { ...context, keepAliveMs: 0 }, new RecordingOutput());
    expect(rows[0]).toMatchObject({ finish_reason: 'cancelled', prompt_tokens: 40, completion_tokens: 9 });
    expect(rows[0]!.estimated).toBeUndefined();
  });
});

describe('answerWhole', () => {
  it('answers one completion with our id, the model and provider, and the cost in usage', async () => {
    const { adapter } = scriptedAdapter({
      complete: async () => ({
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
        usage: { ...usage },
      }),
    });
    const { generation, context, rows } = setup(adapter, { stream: false });
    const outcome = await answerWhole(generation, context);
    expect(outcome).toMatchObject({
      kind: 'answer',
      body: { id: 'gen-1', object: 'chat.completion', model: 'p/m', provider: 'p', usage: { total_tokens: 6 } },
    });
    expect(rows).toHaveLength(1);
  });

  it('reports the caller gone (nothing to send) and records 499 when it left before the answer', async () => {
    const { generation, context, rows, controller } = setup(
      scriptedAdapter({
        complete: async () => {
          controller.abort(new CallerGoneError());
          throw new ApiError(502, 'torn down');
        },
      }).adapter,
      { stream: false },
    );
    expect(await answerWhole(generation, context)).toEqual({ kind: 'caller-gone' });
    expect(rows[0]).toMatchObject({ status: 499, finish_reason: 'cancelled' });
  });
});
