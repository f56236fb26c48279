// A local OpenAI-compatible server for the gateway tests: POST /v1/chat/completions (SSE with `data:` lines and
// `[DONE]`, the usage chunk with `choices: []` only when include_usage was asked, or one JSON completion) and
// GET /v1/models. What it does depends on the model name (see `scenarios`); every request is recorded.

import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { RecordingServer, type RecordedRequest } from '../support/recording-server.js';

export type { RecordedRequest };

type Scenario = (request: RecordedRequest, response: ServerResponse) => Promise<void> | void;

export const usage = {
  prompt_tokens: 12,
  completion_tokens: 3,
  total_tokens: 15,
  prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 0 },
};

export const weatherCall = { id: 'call_weather1', name: 'get_weather', arguments: '{"city": "Paris"}' };
export const timeCall = { id: 'call_time2', name: 'get_time', arguments: '{"tz": "Europe/Paris"}' };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class FakeUpstream {
  private readonly server = new RecordingServer((recorded, response) => this.handle(recorded, response));
  readonly requests: RecordedRequest[] = this.server.requests;
  models = [
    'gpt-test',
    'tool-model',
    'reasoning-model',
    'rate-limited',
    'bad-key',
    'server-error',
    'garbage',
    'drop',
    'slow',
    'slow-finish',
    'json-answer',
    'truncated',
  ];
  /** Makes GET /models fail with this status. */
  modelsStatus = 200;
  /** What `slow` and `slow-finish` wait between chunks. */
  slowChunkMs = 30;
  private readonly scenarios: Record<string, Scenario> = {
    'gpt-test': (request, response) => this.answer(request, response, { content: ['Hello', ', world', '!'] }),
    'tool-model': (request, response) => this.answer(request, response, { tools: true }),
    'reasoning-model': (request, response) =>
      this.answer(request, response, { reasoning: ['Thinking', ' hard.'], content: ['42'] }),
    'json-answer': (request, response) =>
      this.json(response, 200, this.completion(request, { content: ['plain JSON'] })),
    'rate-limited': (_request, response) =>
      this.json(
        response,
        429,
        { error: { message: 'Rate limit reached for requests', type: 'requests' } },
        { 'retry-after': '7' },
      ),
    'bad-key': (request, response) =>
      this.json(response, 401, {
        error: {
          message: `Incorrect API key provided: ${String(request.headers.authorization)}`,
          code: 'invalid_api_key',
        },
      }),
    'server-error': (_request, response) => this.json(response, 500, { error: { message: 'The server had an error' } }),
    garbage: (request, response) => {
      this.openStream(response);
      this.send(response, this.chunk(request, { role: 'assistant', content: 'Partial' }));
      response.end('data: {this is not json\n\n');
    },
    drop: async (request, response) => {
      this.openStream(response);
      this.send(response, this.chunk(request, { role: 'assistant', content: 'Partial' }));
      await sleep(20);
      response.socket?.destroy();
    },
    truncated: (request, response) => {
      this.openStream(response);
      this.send(response, this.chunk(request, { role: 'assistant', content: 'Partial' }));
      response.end();
    },
    // One chunk, then silence until the caller goes away.
    slow: async (request, response) => {
      this.openStream(response);
      this.send(response, this.chunk(request, { role: 'assistant', content: 'Still' }));
      await once(response, 'close');
    },
    // Five chunks `slowChunkMs` apart, then a normal end.
    'slow-finish': async (request, response) => {
      this.openStream(response);
      for (let index = 0; index < 5; index += 1) {
        this.send(
          response,
          this.chunk(request, index === 0 ? { role: 'assistant', content: '0' } : { content: String(index) }),
        );
        await sleep(this.slowChunkMs);
      }
      this.send(response, this.chunk(request, {}, 'stop'));
      this.send(response, { ...this.chunk(request, {}), choices: [], usage });
      response.end('data: [DONE]\n\n');
    },
  };

  async start(): Promise<string> {
    return `${await this.server.start()}/v1/`;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  chatRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.url === '/v1/chat/completions');
  }

  private async handle(recorded: RecordedRequest, response: ServerResponse): Promise<void> {
    if (recorded.method === 'GET' && recorded.url === '/v1/models') {
      if (this.modelsStatus !== 200) return this.json(response, this.modelsStatus, { error: { message: 'nope' } });
      return this.json(response, 200, {
        object: 'list',
        data: this.models.map((id) => ({ id, object: 'model', created: 1730000000, owned_by: 'fake' })),
      });
    }
    if (recorded.method !== 'POST' || recorded.url !== '/v1/chat/completions') {
      return this.json(response, 404, { error: { message: 'no such route' } });
    }
    const scenario = this.scenarios[String(recorded.body?.model)];
    if (!scenario)
      return this.json(response, 404, {
        error: { message: `The model ${String(recorded.body?.model)} does not exist` },
      });
    await scenario(recorded, response);
  }

  private json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  }

  private openStream(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  }

  private send(response: ServerResponse, chunk: unknown): void {
    response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }

  private chunk(request: RecordedRequest, delta: Record<string, unknown>, finishReason: string | null = null) {
    return {
      id: 'chatcmpl-upstream-1',
      object: 'chat.completion.chunk',
      created: 1730000000,
      model: String(request.body?.model),
      system_fingerprint: 'fp_fake',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      usage: null,
    };
  }

  private completion(request: RecordedRequest, plan: { content?: string[]; tools?: boolean }) {
    const toolCalls = [weatherCall, timeCall].map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
    return {
      id: 'chatcmpl-upstream-2',
      object: 'chat.completion',
      created: 1730000000,
      model: String(request.body?.model),
      choices: [
        {
          index: 0,
          message: plan.tools
            ? { role: 'assistant', content: null, tool_calls: toolCalls, refusal: null }
            : { role: 'assistant', content: (plan.content ?? []).join(''), refusal: null },
          logprobs: null,
          finish_reason: plan.tools ? 'tool_calls' : 'stop',
        },
      ],
      usage,
    };
  }

  /** A generation as OpenAI sends it: streamed in small deltas, or one completion for stream = false. */
  private answer(
    request: RecordedRequest,
    response: ServerResponse,
    plan: { content?: string[]; reasoning?: string[]; tools?: boolean },
  ): void {
    if (request.body?.stream !== true) return this.json(response, 200, this.completion(request, plan));
    this.openStream(response);
    this.send(response, this.chunk(request, { role: 'assistant', content: '', refusal: null }));
    for (const piece of plan.reasoning ?? []) this.send(response, this.chunk(request, { reasoning_content: piece }));
    for (const piece of plan.content ?? []) this.send(response, this.chunk(request, { content: piece }));
    if (plan.tools) {
      [weatherCall, timeCall].forEach((call, index) => {
        this.send(
          response,
          this.chunk(request, {
            tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
          }),
        );
        // The arguments in three fragments, split inside keys and values.
        const third = Math.ceil(call.arguments.length / 3);
        for (let start = 0; start < call.arguments.length; start += third) {
          const piece = call.arguments.slice(start, start + third);
          this.send(response, this.chunk(request, { tool_calls: [{ index, function: { arguments: piece } }] }));
        }
      });
    }
    this.send(response, this.chunk(request, {}, plan.tools ? 'tool_calls' : 'stop'));
    const streamOptions = request.body?.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage) this.send(response, { ...this.chunk(request, {}), choices: [], usage });
    response.end('data: [DONE]\n\n');
  }
}
