// The native relay without a server: a scripted adapter's native answers relayed to a recording output.

import { describe, expect, it } from 'vitest';
import { ApiError, type ChatRequest, type ProviderInfo } from '../../../shared/api/index.js';
import { UpstreamError, type NativeAnswer, type NativeCall, type ProviderAdapter } from '../../providers/index.js';
import { testGeneration } from './test-support.js';
import { CallerGoneError } from '../http/in-flight.js';
import {
  answerNativeWhole,
  relayNativeStream,
  servedNatively,
  type NativeProtocol,
  type NativeReading,
} from './native-relay.js';
import type { RawStreamOutput } from '../http/exchange.js';

const provider: ProviderInfo = {
  id: 'p',
  kind: 'anthropic',
  base_url: 'http://127.0.0.1:9',
  has_api_key: false,
  created_at: '',
};

/** A protocol whose events are `{text?, tokens?, stop?}`: enough to see what the relay does with each part. */
const protocol: NativeProtocol = {
  kind: 'anthropic',
  read(payload, reading: NativeReading) {
    if (typeof payload.text === 'string') reading.generated.push(payload.text);
    if (typeof payload.tokens === 'number') {
      reading.usage = { prompt_tokens: 3, completion_tokens: payload.tokens, total_tokens: 3 + payload.tokens };
    }
    if (typeof payload.stop === 'string') reading.finishReason = payload.stop;
  },
  relabel: (payload, model) => ({ ...payload, model }),
  encode: (payload, event) => `event: ${event ?? 'none'}\ndata: ${JSON.stringify(payload)}\n\n`,
  errorEvent: (error) => `event: error\ndata: ${JSON.stringify({ message: error.message })}\n\n`,
  end: () => 'END',
};

function setup(native: (call: NativeCall) => Promise<NativeAnswer>, request: Partial<ChatRequest> = {}) {
  const calls: NativeCall[] = [];
  const adapter: ProviderAdapter = {
    kind: 'anthropic',
    listModels: async () => [],
    streamChat: async () => {
      throw new Error('not translated');
    },
    completeChat: async () => {
      throw new Error('not translated');
    },
    native: async (call) => {
      calls.push(call);
      return native(call);
    },
  };
  const { generation, context, rows, controller, chatRequest } = testGeneration(adapter, provider, request);
  const callFor = (target: { model: string }): NativeCall => ({
    operation: 'messages',
    body: { model: target.model },
    stream: chatRequest.stream,
  });
  return { generation, context, rows, calls, controller, adapter, callFor };
}

class RecordingOutput implements RawStreamOutput {
  opened = false;
  abandoned = false;
  text = '';
  open() {
    this.opened = true;
  }
  async write(text: string) {
    this.text += text;
  }
  end(last: string) {
    this.text += last;
  }
  abandon() {
    this.abandoned = true;
  }
}

async function* events(...items: { event?: string; data: string }[]) {
  yield* items;
}

describe('answerNativeWhole', () => {
  it('answers the upstream body relabelled with the model asked for, and records its usage and finish', async () => {
    const { generation, context, rows, calls, callFor } = setup(
      async () => ({ whole: { text: 'hi', tokens: 2, stop: 'end_turn' } }),
      {
        stream: false,
      },
    );
    const outcome = await answerNativeWhole(generation, context, protocol, callFor);
    expect(outcome).toEqual({ kind: 'answer', body: { text: 'hi', tokens: 2, stop: 'end_turn', model: 'p/m' } });
    expect(calls[0]).toMatchObject({ operation: 'messages', body: { model: 'm' } });
    expect(rows[0]).toMatchObject({ status: 200, finish_reason: 'end_turn', provider: 'p', completion_tokens: 2 });
  });

  it('answers an upstream refusal as an error outcome and records it', async () => {
    const { generation, context, rows, callFor } = setup(async () => {
      throw new UpstreamError({ status: 400, message: 'bad thinking block', provider: 'p', upstreamStatus: 400 });
    });
    expect(await answerNativeWhole(generation, context, protocol, callFor)).toMatchObject({
      kind: 'error',
      error: { status: 400, message: 'bad thinking block' },
    });
    expect(rows[0]).toMatchObject({ status: 400, error: 'bad thinking block' });
  });
});

describe('relayNativeStream', () => {
  it('passes each event on encoded under its own name, then the ending, and records the last usage reported', async () => {
    const { generation, context, rows, callFor } = setup(async () => ({
      events: events(
        { event: 'start', data: '{"tokens":0}' },
        { event: 'delta', data: '{"text":"Hel"}' },
        { event: 'delta', data: '{"text":"lo","tokens":5,"stop":"end_turn"}' },
      ),
    }));
    const output = new RecordingOutput();
    expect(
      await relayNativeStream(generation, { ...context, keepAliveMs: 0 }, protocol, callFor, output),
    ).toBeUndefined();
    expect(output.text).toBe(
      'event: start\ndata: {"tokens":0,"model":"p/m"}\n\n' +
        'event: delta\ndata: {"text":"Hel","model":"p/m"}\n\n' +
        'event: delta\ndata: {"text":"lo","tokens":5,"stop":"end_turn","model":"p/m"}\n\nEND',
    );
    expect(rows[0]).toMatchObject({ status: 200, finish_reason: 'end_turn', completion_tokens: 5, prompt_tokens: 3 });
  });

  it('hands the encoder the upstream’s own text of an event relabel left unchanged, so it can pass it byte for byte', async () => {
    const { generation, context, callFor } = setup(async () => ({
      events: events({ event: 'start', data: '{"text": "é" }' }, { event: 'ping', data: '{"type": "ping"}' }),
    }));
    const relabelOnlyText: NativeProtocol = {
      ...protocol,
      relabel: (payload, model) => (payload.text === undefined ? payload : { ...payload, model }),
      encode: (payload, event, data) => `event: ${event}\ndata: ${data ?? JSON.stringify(payload)}\n\n`,
    };
    const output = new RecordingOutput();
    await relayNativeStream(generation, { ...context, keepAliveMs: 0 }, relabelOnlyText, callFor, output);
    expect(output.text).toBe(
      'event: start\ndata: {"text":"é","model":"p/m"}\n\nevent: ping\ndata: {"type": "ping"}\n\nEND',
    );
  });

  it('answers a failure before the first byte as an error outcome, with nothing written', async () => {
    const { generation, context, rows, callFor } = setup(async () => {
      throw new UpstreamError({ status: 401, message: 'bad key', provider: 'p', upstreamStatus: 401 });
    });
    const output = new RecordingOutput();
    const outcome = await relayNativeStream(generation, { ...context, keepAliveMs: 0 }, protocol, callFor, output);
    expect(outcome).toMatchObject({ kind: 'error', error: { message: 'bad key' } });
    expect(output.opened).toBe(false);
    expect(rows[0]).toMatchObject({ status: 401 });
  });

  it("ends a stream that fails mid-way with the protocol's error event and records the usage reported so far", async () => {
    const { generation, context, rows, callFor } = setup(async () => ({
      events: (async function* () {
        yield { event: 'delta', data: '{"text":"a","tokens":1}' };
        throw new ApiError(529, 'Overloaded');
      })(),
    }));
    const output = new RecordingOutput();
    await relayNativeStream(generation, { ...context, keepAliveMs: 0 }, protocol, callFor, output);
    expect(output.text).toMatch(/event: error\ndata: \{"message":"Overloaded"\}\n\n$/);
    expect(rows[0]).toMatchObject({ status: 200, finish_reason: 'error', error: 'Overloaded', completion_tokens: 1 });
  });

  it('turns an event that is not JSON into an error event', async () => {
    const { generation, context, callFor } = setup(async () => ({ events: events({ event: 'delta', data: 'nope' }) }));
    const output = new RecordingOutput();
    await relayNativeStream(generation, { ...context, keepAliveMs: 0 }, protocol, callFor, output);
    expect(output.text).toContain('sent a stream event that is not JSON');
  });

  it('drops the connection when the caller leaves and records an estimate of what was generated', async () => {
    const harness = setup(async () => ({
      events: (async function* () {
        yield { event: 'delta', data: '{"text":"Hello there"}' };
        harness.controller.abort(new CallerGoneError());
        yield { event: 'delta', data: '{"text":"!"}' };
      })(),
    }));
    const output = new RecordingOutput();
    await relayNativeStream(
      harness.generation,
      { ...harness.context, keepAliveMs: 0 },
      protocol,
      harness.callFor,
      output,
    );
    expect(output.abandoned).toBe(true);
    expect(harness.rows[0]).toMatchObject({ status: 200, finish_reason: 'cancelled', estimated: true });
    expect(harness.rows[0]!.completion_tokens).toBeGreaterThan(0);
  });
});

describe('servedNatively', () => {
  it('is true for a model of the protocol’s kind, false for another kind, fallbacks, or a model that does not resolve', async () => {
    const { generation, context } = setup(async () => ({ whole: {} }));
    expect(await servedNatively(generation, context, 'anthropic')).toBe(true);
    expect(await servedNatively(generation, context, 'google')).toBe(false);
    const withFallback = { ...generation, request: { ...generation.request, models: ['p/m', 'q/n'] } };
    expect(await servedNatively(withFallback, context, 'anthropic')).toBe(false);
    const unresolvable = { ...context, providers: { resolve: async () => Promise.reject(new ApiError(404, 'no')) } };
    expect(await servedNatively(generation, unresolvable, 'anthropic')).toBe(false);
  });
});
