// The fake Gemini upstream: POST /v1beta/models/{model}:streamGenerateContent?alt=sse (`data:` lines separated by
// CRLF, no [DONE]) and :generateContent, :countTokens (one token per word of the texts), and GET /v1beta/models, checking `x-goog-api-key` like the real API (a bad
// key is a 400 API_KEY_INVALID). A generation request gets the step RecordingServer picks; `answer()` replays a
// recorded fixture from main/providers/google/__fixtures__, `fail()` sends Google's error shape.

import { fixtureAnswer, jsonReply, providerFixture, RecordingServer } from './recording-server.js';
import type { RecordedRequest, RecordingServerOptions, Reply, Step } from './recording-server.js';
import { fakeEmbedding } from './fake-openai.js';

export const geminiKey = 'AIzaSy-test-key-abcdef';

export function geminiFixture(name: string): string {
  return providerFixture('google', name);
}

/** Google's error shape. */
export function fail(code: number, status: string, message: string, details: unknown[] = []): Step {
  return () => jsonReply(code, { error: { code, message, status, details } });
}

export interface GeminiAnswer {
  /** The fixture replayed for :streamGenerateContent (default: a text answer). */
  stream?: string;
  /** The whole response (JSON) for :generateContent; without it, the stream is replayed whatever was asked. */
  whole?: unknown;
  /** Replay the stream only up to its last `data:` line (a stream cut before its end). */
  truncated?: boolean;
}

/** A generation: a recorded stream replayed in pieces cut inside events, or a whole response. */
export function answer(plan: GeminiAnswer | ((request: RecordedRequest) => GeminiAnswer)): Step {
  return fixtureAnswer(
    (request) => request.url.includes(':streamGenerateContent'),
    (request) => {
      const { stream, whole, truncated } = typeof plan === 'function' ? plan(request) : plan;
      const text = geminiFixture(stream ?? 'gemini-text.sse.txt');
      return { stream: truncated ? text.slice(0, text.lastIndexOf('data:')) : text, whole };
    },
  );
}

const callPattern = /^\/v1beta\/models\/([^/:?]+):(streamGenerateContent|generateContent)(\?.*)?$/;

export class FakeGemini extends RecordingServer {
  /** `apiKey` defaults to `geminiKey`. */
  constructor(options: RecordingServerOptions = {}) {
    super((request) => this.answer(request), { apiKey: geminiKey, ...options });
  }

  generateRequests(): RecordedRequest[] {
    return this.requests.filter((request) => callPattern.test(request.url));
  }

  private answer(request: RecordedRequest): Reply | Promise<Reply> {
    const refuse = (code: number, status: string, message: string, details: unknown[] = []) =>
      fail(code, status, message, details)(request);
    if (request.headers['x-goog-api-key'] !== this.apiKey) {
      return refuse(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]);
    }
    if (request.method === 'GET' && request.url.startsWith('/v1beta/models?')) {
      return jsonReply(200, {
        models: this.modelIds().map((id) => ({
          name: `models/${id}`,
          displayName: id,
          inputTokenLimit: 1048576,
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        })),
      });
    }
    const embed = /^\/v1beta\/models\/([^/:?]+):batchEmbedContents$/.exec(request.url);
    if (request.method === 'POST' && embed) {
      const requests = (request.body?.requests ?? []) as { content: { parts: { text: string }[] } }[];
      return jsonReply(200, {
        embeddings: requests.map((entry, index) => ({ values: fakeEmbedding(entry.content.parts[0]!.text, index) })),
      });
    }
    const count = /^\/v1beta\/models\/([^/:?]+):countTokens$/.exec(request.url);
    if (request.method === 'POST' && count) {
      const contents = (request.body?.contents ?? []) as { parts?: { text?: string }[] }[];
      const parts = contents.flatMap((content) => content.parts ?? []);
      const words = parts.flatMap((part) => (part.text ?? '').split(/\s+/).filter(Boolean));
      return jsonReply(200, { totalTokens: words.length });
    }
    const match = callPattern.exec(request.url);
    if (request.method !== 'POST' || !match) return refuse(404, 'NOT_FOUND', `Method not found: ${request.url}`);
    const [, model, method, query] = match;
    if (method === 'streamGenerateContent' && query !== '?alt=sse') {
      return refuse(400, 'INVALID_ARGUMENT', 'expected alt=sse');
    }
    const step = this.stepFor(model!);
    return step ? step(request) : refuse(404, 'NOT_FOUND', `models/${model} is not found`);
  }
}
