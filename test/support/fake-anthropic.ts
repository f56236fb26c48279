// The fake Anthropic upstream: the Messages API's POST /v1/messages (SSE with `event:` + `data:` lines, or one JSON
// message), POST /v1/messages/count_tokens and GET /v1/models, checking `x-api-key`, `anthropic-version` and
// `max_tokens` like the real API. A message request gets the step RecordingServer picks; `answer()` replays a
// recorded fixture from main/providers/anthropic/__fixtures__, `fail()` sends Anthropic's error shape.

import type { OutgoingHttpHeaders } from 'node:http';
import { fixtureAnswer, jsonReply, providerFixture, RecordingServer } from './recording-server.js';
import type { RecordedRequest, RecordingServerOptions, Reply, Step } from './recording-server.js';

export const anthropicKey = 'sk-ant-api03-test-key-abcdef';
const anthropicVersions = ['2023-06-01', '2026-10-21'];

export function anthropicFixture(name: string): string {
  return providerFixture('anthropic', name);
}

/** Anthropic's error shape. */
export function fail(status: number, type: string, message: string, headers: OutgoingHttpHeaders = {}): Step {
  return () => jsonReply(status, { type: 'error', error: { type, message }, request_id: 'req_011CTest' }, headers);
}

export interface AnthropicAnswer {
  /** The fixture replayed when a stream is asked (default: a text answer). */
  stream?: string;
  /** The whole message (JSON) sent otherwise; without it, the stream is replayed whatever was asked. */
  whole?: unknown;
  /** Replay the stream only up to the first occurrence of this text, then `then`. */
  cutBefore?: string;
  then?: Reply['then'];
}

/** A generation: a recorded stream replayed in pieces cut inside events, or a whole message. */
export function answer(plan: AnthropicAnswer | ((request: RecordedRequest) => AnthropicAnswer)): Step {
  return fixtureAnswer(
    (request) => request.body?.stream === true,
    (request) => {
      const { stream, whole, cutBefore, then } = typeof plan === 'function' ? plan(request) : plan;
      const text = anthropicFixture(stream ?? 'anthropic-text.sse.txt');
      return { stream: cutBefore ? text.slice(0, text.indexOf(cutBefore)) : text, whole, then };
    },
  );
}

export class FakeAnthropic extends RecordingServer {
  /** `apiKey` defaults to `anthropicKey`. */
  constructor(options: RecordingServerOptions = {}) {
    super((request) => this.answer(request), { apiKey: anthropicKey, ...options });
  }

  messageRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.url === '/v1/messages');
  }

  private answer(request: RecordedRequest): Reply | Promise<Reply> {
    const refuse = (status: number, type: string, message: string) => fail(status, type, message)(request);
    if (request.headers['x-api-key'] !== this.apiKey) {
      return refuse(401, 'authentication_error', 'invalid x-api-key');
    }
    // The versions Switchyard's adapter and the official SDK (1.x) send; the API refuses a request without one.
    if (!anthropicVersions.includes(String(request.headers['anthropic-version']))) {
      return refuse(400, 'invalid_request_error', 'anthropic-version: header is required');
    }
    if (request.method === 'GET' && request.url.startsWith('/v1/models')) {
      const ids = this.modelIds();
      return jsonReply(200, {
        data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-05-22T00:00:00Z' })),
        has_more: false,
        first_id: ids[0],
        last_id: ids.at(-1),
      });
    }
    if (request.method === 'POST' && request.url === '/v1/messages/count_tokens') {
      // One token a word of the request's texts: enough to tell the upstream's count from an estimate.
      const texts = JSON.stringify(request.body ?? {}).match(/"text":"((?:[^"\\]|\\.)*)"/g) ?? [];
      const words = texts.flatMap((text) => text.slice('"text":"'.length, -1).split(/\s+/).filter(Boolean));
      return jsonReply(200, { input_tokens: words.length });
    }
    if (request.method !== 'POST' || request.url !== '/v1/messages') {
      return refuse(404, 'not_found_error', `No route ${request.url}`);
    }
    if (typeof request.body?.max_tokens !== 'number') {
      return refuse(400, 'invalid_request_error', 'max_tokens: Field required');
    }
    const model = String(request.body.model);
    const step = this.stepFor(model);
    return step ? step(request) : refuse(404, 'not_found_error', `model: ${model}`);
  }
}
