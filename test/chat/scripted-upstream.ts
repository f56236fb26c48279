// A fake OpenAI-compatible upstream for the chat tests: what it streams depends on the conversation it gets.
// - the last message is a `tool` result → a final answer quoting it ("The tool said: …");
// - the last user message mentions "echo" → a streamed tool call of server-everything's `echo`, in fragments;
// - "loop" → a tool call every time (for the step cap);
// - "slow" → a long answer, piece by piece (for stop);
// - "think" → reasoning first, then the answer;
// - anything else → a short markdown answer with a code block.
// Every request is recorded, and how many were closed by the client before the end.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedUpstreamRequest {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { function: { name: string } }[];
    temperature?: number;
  } | null;
}

export interface ScriptedUpstream {
  /** Base URL to configure as the provider's base URL (ends in /v1). */
  baseUrl: string;
  requests: RecordedUpstreamRequest[];
  chatRequests(): RecordedUpstreamRequest[];
  /** Chat requests whose connection closed before the answer ended. */
  abortedCount(): number;
  close(): Promise<void>;
}

export interface ScriptedUpstreamOptions {
  /** Delay between pieces of ordinary answers (slow answers use slowPieceMs). */
  pieceDelayMs?: number;
  slowPieceMs?: number;
}

export const echoFunction = 'everything__echo';
export const defaultAnswer = 'Hello from the **scripted** model.\n\n```js\nconst answer = 42;\n```\n';

type Chunk = Record<string, unknown>;

function chunk(model: string, delta: Record<string, unknown>, finishReason: string | null = null): Chunk {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
      .join(' ');
  }
  return '';
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

function script(body: NonNullable<RecordedUpstreamRequest['body']>): { chunks: Chunk[]; slow: boolean } {
  const model = body.model ?? 'scripted';
  const messages = body.messages ?? [];
  const last = messages.at(-1);
  const lastUser = textOf(messages.findLast((message) => message.role === 'user')?.content).toLowerCase();
  const text = (answer: string, size = 6) => [
    chunk(model, { role: 'assistant', content: '' }),
    ...split(answer, size).map((piece) => chunk(model, { content: piece })),
    chunk(model, {}, 'stop'),
  ];
  const toolCall = (id: string, args: string) => [
    chunk(model, { role: 'assistant', content: null }),
    chunk(model, {
      tool_calls: [{ index: 0, id, type: 'function', function: { name: echoFunction, arguments: '' } }],
    }),
    ...split(args, 5).map((piece) => chunk(model, { tool_calls: [{ index: 0, function: { arguments: piece } }] })),
    chunk(model, {}, 'tool_calls'),
  ];
  if (lastUser.includes('loop')) {
    const round = messages.filter((message) => message.role === 'tool').length;
    return { chunks: toolCall(`call_loop_${round}`, JSON.stringify({ message: `round ${round}` })), slow: false };
  }
  if (last?.role === 'tool') return { chunks: text(`The tool said: ${textOf(last.content)}`), slow: false };
  if (lastUser.includes('echo')) {
    const word = /echo\s+(\S+)/.exec(lastUser)?.[1] ?? 'ping';
    return { chunks: toolCall('call_echo_1', JSON.stringify({ message: word })), slow: false };
  }
  if (lastUser.includes('slow')) {
    return { chunks: text(Array.from({ length: 400 }, (_, index) => `word${index} `).join(''), 8), slow: true };
  }
  if (lastUser.includes('think')) {
    return {
      chunks: [
        chunk(model, { role: 'assistant', reasoning: 'Let me ' }),
        chunk(model, { reasoning: 'think about it.' }),
        ...text('Thought it through.').slice(1),
      ],
      slow: false,
    };
  }
  return { chunks: text(defaultAnswer), slow: false };
}

export async function startScriptedUpstream(options: ScriptedUpstreamOptions = {}): Promise<ScriptedUpstream> {
  const requests: RecordedUpstreamRequest[] = [];
  let aborted = 0;
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (data: Buffer) => (raw += data.toString()));
    request.on('end', () => {
      let body: RecordedUpstreamRequest['body'] = null;
      try {
        body = raw ? (JSON.parse(raw) as RecordedUpstreamRequest['body']) : null;
      } catch {
        body = null;
      }
      requests.push({ url: request.url ?? '', headers: request.headers, body });
      if (request.url === '/v1/models') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            object: 'list',
            data: [
              { id: 'scripted-1', object: 'model', created: 0, owned_by: 'test' },
              {
                id: 'scripted-vision',
                object: 'model',
                created: 0,
                owned_by: 'test',
                architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
              },
            ],
          }),
        );
        return;
      }
      if (request.url !== '/v1/chat/completions' || !body) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const { chunks, slow } = script(body);
      const usage = {
        prompt_tokens: 20,
        completion_tokens: chunks.length,
        total_tokens: 20 + chunks.length,
        cost: 0.0002,
      };
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let timer: NodeJS.Timeout | undefined;
      response.on('close', () => {
        clearTimeout(timer);
        if (!response.writableEnded) aborted += 1;
      });
      let index = 0;
      const delay = slow ? (options.slowPieceMs ?? 60) : (options.pieceDelayMs ?? 5);
      const next = () => {
        if (response.destroyed) return;
        const event = chunks[index++];
        if (event) {
          response.write(`data: ${JSON.stringify(event)}\n\n`);
          timer = setTimeout(next, delay);
          return;
        }
        response.write(`data: ${JSON.stringify({ ...chunk(body?.model ?? 'scripted', {}), choices: [], usage })}\n\n`);
        response.end('data: [DONE]\n\n');
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((request) => request.url === '/v1/chat/completions'),
    abortedCount: () => aborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
