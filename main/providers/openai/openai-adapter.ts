// The adapter for `kind: 'openai'`: any OpenAI-compatible server (OpenAI, OpenRouter, Groq, Ollama, LM Studio,
// vLLM…). This file is the HTTP part; every translation lives in the pure functions beside it.

import type { ChatRequest, ModelInfo } from '../../../shared/api/index.js';
import type { AdapterCompletion, ProviderAdapter, StreamPart, UpstreamTarget } from '../adapter.js';
import { malformedUpstream, mapUpstreamErrorPayload, parseAnswer } from '../http/upstream-errors.js';
import {
  headerValue,
  UpstreamHttp,
  type ProviderTarget,
  type UpstreamHttpOptions,
  type UpstreamResponse,
} from '../http/upstream-http.js';
import { joinUrl } from '../http/url.js';
import { buildOpenAIRequestBody } from './build-request-body.js';
import { completionToStreamParts, convertOpenAICompletion } from './convert-completion.js';
import { convertOpenAIModels } from './convert-models.js';
import { OpenAIStreamDecoder } from './decode-stream.js';
import { buildEmbeddingsBody, convertEmbeddings, upstreamEmbeddingsSchema } from './embeddings.js';
import { upstreamCompletionSchema, upstreamModelListSchema } from './upstream-schemas.js';
import { isOpenRouterLike } from './url.js';

export type OpenAIAdapterOptions = UpstreamHttpOptions;

export interface OpenAIAdapter extends ProviderAdapter {
  readonly kind: 'openai';
}

export function createOpenAIAdapter(options: OpenAIAdapterOptions = {}): OpenAIAdapter {
  const http = new UpstreamHttp(options);

  function send(
    target: ProviderTarget,
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    accept: string,
    signal: AbortSignal,
  ) {
    const headers: Record<string, string> = target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {};
    return http.send({ target, method, url: joinUrl(target.provider.base_url, path), headers, body, accept, signal });
  }

  /** A JSON body of a 2xx answer; an `error` inside it (some servers answer errors with 200) becomes an error. */
  async function readJson(response: UpstreamResponse, target: ProviderTarget, signal: AbortSignal): Promise<unknown> {
    const json = await http.readJson(response, target, signal);
    if (json !== null && typeof json === 'object' && 'error' in json && json.error) {
      throw mapUpstreamErrorPayload(target.provider.id, json.error, http.secretsOf(target));
    }
    return json;
  }

  function parseCompletion(json: unknown, target: UpstreamTarget): AdapterCompletion {
    const what = 'answered with something that is not a chat completion';
    return convertOpenAICompletion(parseAnswer(upstreamCompletionSchema, json, target.provider.id, what));
  }

  function body(chatRequest: ChatRequest, target: UpstreamTarget, stream: boolean): Record<string, unknown> {
    return buildOpenAIRequestBody(chatRequest, {
      upstreamModel: target.model,
      openRouterLike: isOpenRouterLike(target.provider.base_url),
      stream,
    });
  }

  function streamBody(response: UpstreamResponse, target: UpstreamTarget, signal: AbortSignal) {
    const decoder = new OpenAIStreamDecoder({ providerId: target.provider.id, secrets: http.secretsOf(target) });
    return http.sseParts(response, target, signal, decoder);
  }

  return {
    kind: 'openai',

    async listModels(target, signal): Promise<ModelInfo[]> {
      const response = await send(target, 'GET', 'models', undefined, 'application/json', signal);
      const json = await readJson(response, target, signal);
      const what = 'answered GET /models with an unexpected shape';
      return convertOpenAIModels(parseAnswer(upstreamModelListSchema, json, target.provider.id, what));
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

    async legacyCompletion(request, target, signal) {
      const upstreamBody: Record<string, unknown> = { ...request, model: target.model };
      // Usage must be known for the usage log, whatever the caller asked.
      if (request.stream) upstreamBody.stream_options = { include_usage: true };
      const accept = request.stream ? 'text/event-stream' : 'application/json';
      const response = await send(target, 'POST', 'completions', upstreamBody, accept, signal);
      if (!request.stream || headerValue(response.headers, 'content-type').includes('json')) {
        const json = await readJson(response, target, signal);
        if (json === null || typeof json !== 'object' || Array.isArray(json)) {
          throw malformedUpstream(target.provider.id, 'answered with something that is not a completion');
        }
        return { whole: json as Record<string, unknown> };
      }
      return { events: legacyEvents(http.sseEvents(response, target, signal)) };
    },

    async embed(request, target, signal) {
      const body = buildEmbeddingsBody(request, target.model);
      const response = await send(target, 'POST', 'embeddings', body, 'application/json', signal);
      const json = await readJson(response, target, signal);
      const what = 'answered with something that is not embeddings';
      return convertEmbeddings(parseAnswer(upstreamEmbeddingsSchema, json, target.provider.id, what));
    },

    async close(): Promise<void> {
      await http.close();
    },
  };
}

/** The `data:` payloads of a legacy completions stream, up to `[DONE]`. */
async function* legacyEvents(events: AsyncIterable<{ data: string }>): AsyncGenerator<string, void, undefined> {
  for await (const event of events) {
    const data = event.data.trim();
    if (data === '[DONE]') return;
    if (data !== '') yield data;
  }
}
