// The adapter for `kind: 'openai'`: any OpenAI-compatible server (OpenAI, OpenRouter, Groq, Ollama, LM Studio,
// vLLM…). This file is the HTTP part; every translation lives in the pure functions beside it.

import { Agent, request, type Dispatcher } from 'undici';
import { ApiError, type ChatRequest, type ModelInfo } from '../../../shared/api/index.js';
import type { AdapterCompletion, ProviderAdapter, StreamPart, UpstreamTarget } from '../adapter.js';
import { headerValue, readText } from '../http/upstream-http.js';
import { buildOpenAIRequestBody } from './build-request-body.js';
import { completionToStreamParts, convertOpenAICompletion } from './convert-completion.js';
import { convertOpenAIModels } from './convert-models.js';
import { decodeOpenAIStream } from './decode-stream.js';
import { mapTransportError, mapUpstreamError, mapUpstreamErrorPayload, type TransportContext } from './map-error.js';
import { upstreamCompletionSchema, upstreamModelListSchema } from './upstream-schemas.js';
import { isOpenRouterLike, joinUrl } from './url.js';

export interface OpenAIAdapterOptions {
  /** Where requests go; by default a keep-alive Agent owned (and closed) by the adapter. */
  dispatcher?: Dispatcher;
  /** Connect + time to response headers. Slow models think for minutes before the first byte. Default 5 min. */
  headersTimeoutMs?: number;
  /** Longest silence between two body chunks. Default 5 min. */
  bodyTimeoutMs?: number;
  /** TCP + TLS connect of a new connection; a dead host fails fast and the next attempt can start. Default 10 s. */
  connectTimeoutMs?: number;
}

export interface OpenAIAdapter extends ProviderAdapter {
  readonly kind: 'openai';
}

type ResponseData = Dispatcher.ResponseData;

const maxErrorBodyBytes = 64 * 1024;
const maxCompletionBytes = 64 * 1024 * 1024;
const userAgent = 'Switchyard/0.1';

export function createOpenAIAdapter(options: OpenAIAdapterOptions = {}): OpenAIAdapter {
  const headersTimeoutMs = options.headersTimeoutMs ?? 300_000;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 300_000;
  const ownsDispatcher = options.dispatcher === undefined;
  const dispatcher =
    options.dispatcher ??
    new Agent({
      keepAliveTimeout: 30_000,
      connect: { timeout: options.connectTimeoutMs ?? 10_000 },
      headersTimeout: headersTimeoutMs,
      bodyTimeout: bodyTimeoutMs,
    });

  function transportContext(target: Omit<UpstreamTarget, 'model'>): TransportContext {
    return { providerId: target.provider.id, baseUrl: target.provider.base_url, headersTimeoutMs, bodyTimeoutMs };
  }

  /** Our abort (caller gone, shutdown) wins over whatever undici made of it. */
  function rethrow(error: unknown, signal: AbortSignal, context: TransportContext): never {
    if (signal.aborted) throw signal.reason ?? error;
    throw mapTransportError(error, context);
  }

  /** Sends one request; resolves with a 2xx response, rejects with an ApiError for anything else. */
  async function send(
    target: Omit<UpstreamTarget, 'model'>,
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    accept: string,
    signal: AbortSignal,
  ): Promise<ResponseData> {
    const context = transportContext(target);
    const headers: Record<string, string> = { accept, 'user-agent': userAgent };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
    let response: ResponseData;
    try {
      response = await request(joinUrl(target.provider.base_url, path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        dispatcher,
        headersTimeout: headersTimeoutMs,
        bodyTimeout: bodyTimeoutMs,
      });
    } catch (error) {
      rethrow(error, signal, context);
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return response;
    let text: string;
    try {
      text = await readText(response.body, maxErrorBodyBytes);
    } catch (error) {
      rethrow(error, signal, context);
    }
    throw mapUpstreamError({
      providerId: target.provider.id,
      status: response.statusCode,
      headers: response.headers,
      body: text,
      apiKey: target.apiKey,
    });
  }

  /** A JSON body of a 2xx answer; an `error` inside it (some servers answer errors with 200) becomes an ApiError. */
  async function readJson(response: ResponseData, target: UpstreamTarget, signal: AbortSignal): Promise<unknown> {
    let text: string;
    try {
      text = await readText(response.body, maxCompletionBytes);
    } catch (error) {
      rethrow(error, signal, transportContext(target));
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(502, `Provider "${target.provider.id}" answered with invalid JSON.`, {
        provider_name: target.provider.id,
      });
    }
    if (json !== null && typeof json === 'object' && 'error' in json && json.error) {
      throw mapUpstreamErrorPayload(target.provider.id, json.error, target.apiKey);
    }
    return json;
  }

  function parseCompletion(json: unknown, target: UpstreamTarget): AdapterCompletion {
    const parsed = upstreamCompletionSchema.safeParse(json);
    if (!parsed.success) {
      throw new ApiError(
        502,
        `Provider "${target.provider.id}" answered with something that is not a chat completion.`,
        {
          provider_name: target.provider.id,
        },
      );
    }
    return convertOpenAICompletion(parsed.data);
  }

  function body(chatRequest: ChatRequest, target: UpstreamTarget, stream: boolean): Record<string, unknown> {
    return buildOpenAIRequestBody(
      { ...chatRequest, stream },
      { upstreamModel: target.model, openRouterLike: isOpenRouterLike(target.provider.base_url) },
    );
  }

  async function* streamBody(
    response: ResponseData,
    target: UpstreamTarget,
    signal: AbortSignal,
  ): AsyncGenerator<StreamPart, void, undefined> {
    try {
      yield* decodeOpenAIStream(response.body as AsyncIterable<Uint8Array>, {
        providerId: target.provider.id,
        apiKey: target.apiKey,
      });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      rethrow(error, signal, transportContext(target));
    }
  }

  return {
    kind: 'openai',

    async listModels(target, signal): Promise<ModelInfo[]> {
      const response = await send(target, 'GET', 'models', undefined, 'application/json', signal);
      const json = await readJson(response, { ...target, model: '' }, signal);
      const parsed = upstreamModelListSchema.safeParse(json);
      if (!parsed.success) {
        throw new ApiError(502, `Provider "${target.provider.id}" answered GET /models with an unexpected shape.`, {
          provider_name: target.provider.id,
        });
      }
      return convertOpenAIModels(parsed.data);
    },

    async streamChat(chatRequest, target, signal): Promise<AsyncIterable<StreamPart>> {
      const response = await send(
        target,
        'POST',
        'chat/completions',
        body(chatRequest, target, true),
        'text/event-stream',
        signal,
      );
      if (headerValue(response.headers, 'content-type').includes('json')) {
        // The server ignored `stream: true` and answered with one completion: replay it as a stream.
        const json = await readJson(response, target, signal);
        const hasUsage = json !== null && typeof json === 'object' && 'usage' in json && json.usage != null;
        const parts = completionToStreamParts(parseCompletion(json, target), hasUsage);
        return (async function* replay() {
          yield* parts;
        })();
      }
      return streamBody(response, target, signal);
    },

    async completeChat(chatRequest, target, signal): Promise<AdapterCompletion> {
      const response = await send(
        target,
        'POST',
        'chat/completions',
        body(chatRequest, target, false),
        'application/json',
        signal,
      );
      return parseCompletion(await readJson(response, target, signal), target);
    },

    async close(): Promise<void> {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}
