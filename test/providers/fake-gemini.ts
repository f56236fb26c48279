// A local server speaking the Gemini API: POST /v1beta/models/{model}:streamGenerateContent?alt=sse (`data:` lines
// separated by CRLF, no [DONE]) and :generateContent, and GET /v1beta/models, checking `x-goog-api-key` like the
// real API (a bad key is a 400 API_KEY_INVALID). Streams replay the recorded fixtures in
// main/providers/google/__fixtures__. What it does depends on the model name.

import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import {
  openEventStream,
  RecordingServer,
  replay,
  sendJson,
  type RecordedRequest,
} from '../support/recording-server.js';

export const geminiKey = 'AIzaSy-test-key-abcdef';

export function geminiFixture(name: string): string {
  return readFileSync(new URL(`../../main/providers/google/__fixtures__/${name}`, import.meta.url), 'utf8');
}

function googleError(response: ServerResponse, code: number, status: string, message: string, details: unknown[] = []) {
  sendJson(response, code, { error: { code, message, status, details } });
}

interface GeminiBody {
  tools?: unknown[];
  contents?: { role: string; parts: { functionResponse?: unknown }[] }[];
}

function answersFunctionResponses(body: GeminiBody): boolean {
  return body.contents?.at(-1)?.parts.some((part) => part.functionResponse !== undefined) ?? false;
}

const textResponse = {
  candidates: [{ content: { parts: [{ text: 'Hello from Gemini.' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 4, totalTokenCount: 34, cachedContentTokenCount: 16 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'whole-1',
};

export const geminiModels = [
  'gemini-2.5-flash',
  'gemini-1.0-pro',
  'gemini-rate-limited',
  'gemini-overloaded',
  'gemini-mid-stream-error',
  'gemini-truncated',
];

const callPattern = /^\/v1beta\/models\/([^/:?]+):(streamGenerateContent|generateContent)(\?.*)?$/;

export class FakeGemini extends RecordingServer {
  constructor() {
    super((request, response) => this.answer(request, response));
  }

  generateRequests(): RecordedRequest[] {
    return this.requests.filter((request) => callPattern.test(request.url));
  }

  private async answer(request: RecordedRequest, response: ServerResponse): Promise<void> {
    if (request.headers['x-goog-api-key'] !== geminiKey) {
      return googleError(response, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]);
    }
    if (request.method === 'GET' && request.url.startsWith('/v1beta/models?')) {
      return sendJson(response, 200, {
        models: geminiModels.map((id) => ({
          name: `models/${id}`,
          displayName: id,
          inputTokenLimit: 1048576,
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        })),
      });
    }
    const match = callPattern.exec(request.url);
    if (request.method !== 'POST' || !match) {
      return googleError(response, 404, 'NOT_FOUND', `Method not found: ${request.url}`);
    }
    const [, model, method, query] = match;
    const streaming = method === 'streamGenerateContent';
    if (streaming && query !== '?alt=sse') return googleError(response, 400, 'INVALID_ARGUMENT', 'expected alt=sse');
    switch (model) {
      case 'gemini-rate-limited':
        return googleError(response, 429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota.', [
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '23s' },
        ]);
      case 'gemini-overloaded':
        return googleError(response, 503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
      case 'gemini-mid-stream-error':
        openEventStream(response);
        return replay(response, geminiFixture('gemini-overloaded-mid-stream.sse.txt'));
      case 'gemini-truncated': {
        openEventStream(response);
        const text = geminiFixture('gemini-text.sse.txt');
        return replay(response, text.slice(0, text.lastIndexOf('data:')));
      }
    }
    const body = (request.body ?? {}) as GeminiBody;
    const withTools = (body.tools?.length ?? 0) > 0 && !answersFunctionResponses(body);
    if (!streaming) {
      return sendJson(response, 200, withTools ? JSON.parse(geminiFixture('gemini-response.json')) : textResponse);
    }
    openEventStream(response);
    await replay(response, geminiFixture(withTools ? 'gemini-thinking-tool-calls.sse.txt' : 'gemini-text.sse.txt'));
  }
}
