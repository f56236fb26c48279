// An OpenAI-compatible upstream whose chat answers follow a script, one step per request (503, 429 with
// Retry-After, slow headers, an error event before the first chunk…), then a normal answer naming the server.
// GET /v1/models lists `models`. Every request is recorded with the time it arrived. Plus a gateway in front of
// two such upstreams and a provider that refuses connections, for the resilience tests.

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { pino } from 'pino';
import type { ProviderInfo, UsageRecord } from '../../shared/api/index.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../main/gateway/index.js';
import {
  createOpenAIAdapter,
  ProviderRegistry,
  type OpenAIAdapterOptions,
  type ProviderSource,
} from '../../main/providers/index.js';
import { callerSecret, MemoryKeys } from '../gateway/harness.js';

export interface ScriptedRequest {
  url: string;
  body: Record<string, unknown> | null;
  headers: IncomingMessage['headers'];
  /** performance.now() at arrival. */
  at: number;
}

export type Step = (request: ScriptedRequest, response: ServerResponse) => Promise<void> | void;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function chunk(model: string, delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_730_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

export const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };

export class ScriptedUpstream {
  readonly requests: ScriptedRequest[] = [];
  readonly steps: Step[] = [];
  /** Null: GET /models answers 503 (a server still starting). */
  models: string[] | null = ['m1', 'm2'];
  private server: Server | null = null;

  constructor(readonly name: string) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  chatRequests(): ScriptedRequest[] {
    return this.requests.filter((request) => request.url === '/v1/chat/completions');
  }

  /** Queues steps for the next chat requests. */
  script(...steps: Step[]): this {
    this.steps.push(...steps);
    return this;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const pieces: Buffer[] = [];
    for await (const piece of request) pieces.push(piece as Buffer);
    const text = Buffer.concat(pieces).toString('utf8');
    const recorded: ScriptedRequest = {
      url: request.url ?? '',
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
      headers: request.headers,
      at: performance.now(),
    };
    this.requests.push(recorded);
    if (recorded.url === '/v1/models') {
      if (!this.models) return json(response, 503, { error: { message: 'starting' } });
      return json(response, 200, { object: 'list', data: this.models.map((id) => ({ id, object: 'model' })) });
    }
    const step = this.steps.shift() ?? answer(`answer from ${this.name}`);
    await step(recorded, response);
  }
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** An error status with an OpenAI-style body. */
export function fail(status: number, headers: Record<string, string> = {}): Step {
  return (_request, response) => json(response, status, { error: { message: `scripted ${status}` } }, headers);
}

/** A normal answer: streamed in two pieces, or one completion. `headersAfterMs` delays everything. */
export function answer(content: string, options: { headersAfterMs?: number; firstChunkAfterMs?: number } = {}): Step {
  return async (request, response) => {
    const model = String(request.body?.model);
    if (options.headersAfterMs) await sleep(options.headersAfterMs);
    if (request.body?.stream !== true) {
      return json(response, 200, {
        id: 'chatcmpl-scripted',
        object: 'chat.completion',
        created: 1_730_000_000,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage,
      });
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.flushHeaders();
    if (options.firstChunkAfterMs) await sleep(options.firstChunkAfterMs);
    const half = Math.ceil(content.length / 2);
    for (const piece of [content.slice(0, half), content.slice(half)]) {
      response.write(`data: ${JSON.stringify(chunk(model, { role: 'assistant', content: piece }))}\n\n`);
    }
    response.write(`data: ${JSON.stringify(chunk(model, {}, 'stop'))}\n\n`);
    response.write(`data: ${JSON.stringify({ ...chunk(model, {}), choices: [], usage })}\n\n`);
    response.end('data: [DONE]\n\n');
  };
}

/** Status 200, then an error event before any chunk (what OpenRouter sends when its provider fails at once). */
export function errorEvent(): Step {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(`data: ${JSON.stringify({ error: { code: 502, message: 'Provider returned error' } })}\n\n`);
  };
}

/** One chunk, then the connection drops. */
export function dropAfterFirstChunk(): Step {
  return async (request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(
      `data: ${JSON.stringify(chunk(String(request.body?.model), { role: 'assistant', content: 'Par' }))}\n\n`,
    );
    await sleep(20);
    response.socket?.destroy();
  };
}

export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export const primarySecret = 'sk-primary-upstream-secret-1234';

export interface ResilienceGateway {
  primary: ScriptedUpstream;
  backup: ScriptedUpstream;
  baseURL: string;
  client: OpenAI;
  usage: UsageRecord[];
  gateway: Gateway;
  close(): Promise<void>;
}

/** Providers `primary` and `backup` (scripted) and `down` (refuses connections) behind a real gateway. */
export async function startResilienceGateway(
  options: GatewayOptions = {},
  adapterOptions: OpenAIAdapterOptions = {},
): Promise<ResilienceGateway> {
  const primary = new ScriptedUpstream('primary');
  const backup = new ScriptedUpstream('backup');
  const created_at = '2026-01-01T00:00:00.000Z';
  const providers: ProviderInfo[] = [
    { id: 'primary', kind: 'openai', base_url: await primary.start(), has_api_key: true, created_at },
    { id: 'backup', kind: 'openai', base_url: await backup.start(), has_api_key: false, created_at },
    {
      id: 'down',
      kind: 'openai',
      base_url: `http://127.0.0.1:${await closedPort()}/v1`,
      has_api_key: false,
      created_at,
    },
  ];
  const source: ProviderSource = {
    listProviders: () => providers,
    getApiKey: async (id) => (id === 'primary' ? primarySecret : null),
    changeVersion: () => 1,
  };
  const logger = pino({ level: 'silent' });
  const registry = new ProviderRegistry({ source, adapters: [createOpenAIAdapter(adapterOptions)], logger });
  const keys = new MemoryKeys();
  keys.add('key-1', callerSecret);
  const usage: UsageRecord[] = [];
  const gateway = createGateway(
    { keys, providers: registry, usage: { record: (row) => usage.push(row) }, logger },
    {
      ...options,
      retry: { baseDelayMs: 10, maxDelayMs: 40, ...options.retry },
    },
  );
  const baseURL = await gateway.listen({ host: '127.0.0.1', port: 0 });
  return {
    primary,
    backup,
    baseURL,
    client: new OpenAI({ baseURL, apiKey: callerSecret, maxRetries: 0 }),
    usage,
    gateway,
    async close() {
      await gateway.close(1_000);
      await registry.close();
      await primary.close();
      await backup.close();
    },
  };
}
