// A fake OpenAI-compatible upstream on 127.0.0.1: it speaks the real chat-completions protocol (SSE `data:` lines,
// `[DONE]`, the `choices: []` usage chunk when include_usage is asked) and records what it received.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

export interface FakeUpstream {
  /** Base URL to configure as the provider's `--base-url` (ends in /v1). */
  baseUrl: string;
  received: ReceivedRequest[];
  /** How many upstream requests were closed by the client before the response ended. */
  abortedCount(): number;
  close(): Promise<void>;
}

export interface FakeUpstreamOptions {
  models?: string[];
  /** Pieces of the streamed answer; the default echoes "Hello" in three pieces. */
  pieces?: string[];
  /** Delay between streamed pieces, for tests that need a stream in flight. */
  pieceDelayMs?: number;
  /** The usage to report instead of {prompt_tokens: 11, completion_tokens: <pieces>} (e.g. with cached tokens or cost). */
  usage?: Record<string, unknown>;
  /** Streams everything, the usage chunk included, then garbage instead of `[DONE]`: a mid-stream failure after usage. */
  failAfterUsage?: boolean;
  /** When set, streams start only once it resolves: keeps many requests in flight at once, deterministically. */
  gate?: Promise<void>;
}

function chunk(id: string, model: string, delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const received: ReceivedRequest[] = [];
  const pieces = options.pieces ?? ['Hel', 'lo', '!'];
  const models = options.models ?? ['echo-1'];
  let aborted = 0;

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (data: Buffer) => (raw += data.toString()));
    request.on('end', () => {
      let body: Record<string, unknown> | null = null;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      if (request.url === '/v1/models') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            object: 'list',
            data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
          }),
        );
        return;
      }
      if (request.url !== '/v1/chat/completions' || !body) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
        return;
      }
      const model = String(body.model);
      const usage = options.usage ?? {
        prompt_tokens: 11,
        completion_tokens: pieces.length,
        total_tokens: 11 + pieces.length,
      };
      if (body.stream !== true) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-fake',
            object: 'chat.completion',
            created: 1_700_000_000,
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: pieces.join('') }, finish_reason: 'stop' }],
            usage,
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const events = [
        chunk('chatcmpl-fake', model, { role: 'assistant', content: '' }),
        ...pieces.map((piece) => chunk('chatcmpl-fake', model, { content: piece })),
        chunk('chatcmpl-fake', model, {}, 'stop'),
      ];
      const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
      let index = 0;
      const timers = new Set<NodeJS.Timeout>();
      response.on('close', () => {
        if (!response.writableEnded) aborted += 1;
        for (const timer of timers) clearTimeout(timer);
      });
      const next = () => {
        if (response.destroyed) return;
        const event = events[index++];
        if (event) {
          response.write(`data: ${JSON.stringify(event)}\n\n`);
          const timer = setTimeout(next, options.pieceDelayMs ?? 0);
          timers.add(timer);
          return;
        }
        if (includeUsage)
          response.write(
            `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage })}\n\n`,
          );
        if (options.failAfterUsage) response.end('data: {this is not json\n\n');
        else response.end('data: [DONE]\n\n');
      };
      void Promise.resolve(options.gate).then(next);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    abortedCount: () => aborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
