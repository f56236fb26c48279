// The benchmark's upstream: an OpenAI-compatible server on loopback with fixed latencies (bench/workloads.ts),
// run in its own process so that it does not share an event loop with the gateway or the load generator.
// Every answer is prepared once; a request costs one JSON.parse and a few timers.
//
//   node --import tsx bench/fake-upstream.ts [port]     prints `listening <port>` once ready

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isProfileName, profileDurationMs, profiles, type ProfileName, type UpstreamProfile } from './workloads.js';

interface PreparedAnswer {
  profile: UpstreamProfile;
  /** One SSE event per content chunk. */
  contentEvents: Buffer[];
  /** Finish chunk, usage chunk (only sent when include_usage was asked) and [DONE]. */
  finishEvent: Buffer;
  usageEvent: Buffer;
  completion: Buffer;
}

const words = ['Hello', ' there', ',', ' this', ' is', ' a', ' fixed', ' benchmark', ' reply', '.'];
const usage = { prompt_tokens: 31, completion_tokens: 10, total_tokens: 41 };

function sse(payload: unknown): Buffer {
  return Buffer.from(`data: ${JSON.stringify(payload)}\n\n`);
}

function prepare(model: ProfileName): PreparedAnswer {
  const profile = profiles[model];
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model };
  const contentEvents = Array.from({ length: profile.contentChunks }, (_, index) => {
    const content = words[index % words.length]!;
    const delta = index === 0 ? { role: 'assistant', content } : { content };
    return sse({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
  });
  const text = Array.from({ length: profile.contentChunks }, (_, index) => words[index % words.length]).join('');
  return {
    profile,
    contentEvents,
    finishEvent: sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    usageEvent: sse({ ...base, choices: [], usage }),
    completion: Buffer.from(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage,
      }),
    ),
  };
}

const answers = new Map<string, PreparedAnswer>(
  (Object.keys(profiles) as ProfileName[]).map((name) => [name, prepare(name)]),
);
const done = Buffer.from('data: [DONE]\n\n');
const modelList = Buffer.from(
  JSON.stringify({
    object: 'list',
    data: Object.keys(profiles).map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'bench' })),
  }),
);

function sendJson(response: ServerResponse, status: number, body: Buffer | string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function stream(response: ServerResponse, answer: PreparedAnswer, includeUsage: boolean): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  let next = 0;
  let timer: NodeJS.Timeout | undefined;
  const writeNext = () => {
    if (response.destroyed) return;
    response.write(answer.contentEvents[next]!);
    next += 1;
    if (next < answer.contentEvents.length) {
      timer = setTimeout(writeNext, answer.profile.chunkIntervalMs);
      return;
    }
    response.write(answer.finishEvent);
    if (includeUsage) response.write(answer.usageEvent);
    response.end(done);
  };
  timer = setTimeout(writeNext, answer.profile.firstTokenMs);
  response.once('close', () => clearTimeout(timer));
}

function chat(response: ServerResponse, text: string): void {
  let body: { model?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return sendJson(response, 400, '{"error":{"message":"invalid JSON"}}');
  }
  const model = typeof body.model === 'string' ? body.model : '';
  const answer = isProfileName(model) ? answers.get(model) : undefined;
  if (!answer) return sendJson(response, 404, `{"error":{"message":"unknown model","code":"model_not_found"}}`);
  if (body.stream === true) return stream(response, answer, body.stream_options?.include_usage === true);
  const timer = setTimeout(() => sendJson(response, 200, answer.completion), profileDurationMs(answer.profile));
  response.once('close', () => clearTimeout(timer));
}

const server = createServer((request, response) => {
  const path = request.url?.split('?')[0] ?? '';
  if (request.method === 'GET' && path.endsWith('/models')) return sendJson(response, 200, modelList);
  if (request.method !== 'POST' || !path.endsWith('/chat/completions')) {
    return sendJson(response, 404, '{"error":{"message":"not found"}}');
  }
  const pieces: Buffer[] = [];
  request.on('data', (piece: Buffer) => pieces.push(piece));
  request.on('end', () => chat(response, Buffer.concat(pieces).toString('utf8')));
});
server.keepAliveTimeout = 60_000;
// How many connections callers opened: a gateway that pools upstream connections opens few.
let connections = 0;
server.on('connection', () => {
  connections += 1;
});

const port = Number(process.argv[2] ?? 0);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  process.stdout.write(`connections ${connections}\n`);
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
