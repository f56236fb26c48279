// A local server speaking the Anthropic Messages API: POST /v1/messages (SSE with `event:` + `data:` lines, or one
// JSON message) and GET /v1/models, checking `x-api-key` and `anthropic-version` like the real API. Streams replay
// the recorded fixtures in main/providers/anthropic/__fixtures__. What it does depends on the model name.

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import {
  openEventStream,
  RecordingServer,
  replay,
  sendJson,
  type RecordedRequest,
} from '../support/recording-server.js';

export const anthropicKey = 'sk-ant-api03-test-key-abcdef';

export function anthropicFixture(name: string): string {
  return readFileSync(new URL(`../../main/providers/anthropic/__fixtures__/${name}`, import.meta.url), 'utf8');
}

function anthropicError(response: ServerResponse, status: number, type: string, message: string, headers = {}) {
  sendJson(response, status, { type: 'error', error: { type, message }, request_id: 'req_011CTest' }, headers);
}

interface AnthropicMessageBody {
  model?: string;
  max_tokens?: unknown;
  stream?: boolean;
  tools?: unknown[];
  messages?: { role: string; content: { type: string }[] }[];
}

/** Whether the last message carries tool results (the second turn of a tool loop). */
function answersToolResults(body: AnthropicMessageBody): boolean {
  return body.messages?.at(-1)?.content.some((block) => block.type === 'tool_result') ?? false;
}

const textMessage = {
  id: 'msg_01TextWhole',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-20250514',
  content: [{ type: 'text', text: 'Hello from Claude.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 10, output_tokens: 5 },
};

export const anthropicModels = [
  'claude-sonnet-4-20250514',
  'claude-2.1',
  'claude-rate-limited',
  'claude-overloaded',
  'claude-mid-stream-error',
  'claude-dropped',
  'claude-slow',
];

export class FakeAnthropic extends RecordingServer {
  constructor() {
    super((request, response) => this.answer(request, response));
  }

  messageRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.url === '/v1/messages');
  }

  private async answer(request: RecordedRequest, response: ServerResponse): Promise<void> {
    if (request.headers['x-api-key'] !== anthropicKey) {
      return anthropicError(response, 401, 'authentication_error', 'invalid x-api-key');
    }
    if (request.headers['anthropic-version'] !== '2023-06-01') {
      return anthropicError(response, 400, 'invalid_request_error', 'anthropic-version: header is required');
    }
    if (request.method === 'GET' && request.url.startsWith('/v1/models')) {
      return sendJson(response, 200, {
        data: anthropicModels.map((id) => ({
          type: 'model',
          id,
          display_name: id,
          created_at: '2025-05-22T00:00:00Z',
        })),
        has_more: false,
        first_id: anthropicModels[0],
        last_id: anthropicModels.at(-1),
      });
    }
    if (request.method !== 'POST' || request.url !== '/v1/messages') {
      return anthropicError(response, 404, 'not_found_error', `No route ${request.url}`);
    }
    const body = (request.body ?? {}) as AnthropicMessageBody;
    if (typeof body.max_tokens !== 'number') {
      return anthropicError(response, 400, 'invalid_request_error', 'max_tokens: Field required');
    }
    switch (body.model) {
      case 'claude-rate-limited':
        return anthropicError(
          response,
          429,
          'rate_limit_error',
          'Number of request tokens has exceeded your rate limit',
          {
            'retry-after': '17',
          },
        );
      case 'claude-overloaded':
        return anthropicError(response, 529, 'overloaded_error', 'Overloaded');
      case 'claude-mid-stream-error':
        openEventStream(response);
        return replay(response, anthropicFixture('anthropic-overloaded-mid-stream.sse.txt'));
      case 'claude-slow': {
        // The first text, then silence until the gateway goes away.
        openEventStream(response);
        const text = anthropicFixture('anthropic-text.sse.txt');
        await replay(response, text.slice(0, text.indexOf('event: content_block_stop')), { end: false });
        await once(response, 'close');
        return;
      }
      case 'claude-dropped': {
        openEventStream(response);
        const text = anthropicFixture('anthropic-text.sse.txt');
        await replay(response, text.slice(0, text.indexOf('event: content_block_stop')), { end: false });
        response.socket?.destroy();
        return;
      }
    }
    const withTools = (body.tools?.length ?? 0) > 0 && !answersToolResults(body);
    if (!body.stream) {
      return sendJson(response, 200, withTools ? JSON.parse(anthropicFixture('anthropic-message.json')) : textMessage);
    }
    openEventStream(response);
    await replay(
      response,
      anthropicFixture(withTools ? 'anthropic-thinking-tool-calls.sse.txt' : 'anthropic-text.sse.txt'),
    );
  }
}
