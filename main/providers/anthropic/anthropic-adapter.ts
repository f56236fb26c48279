// The adapter for `kind: 'anthropic'`: the Anthropic Messages API. This file is the HTTP part; every translation
// lives in the pure functions beside it.

import { ApiError, type ChatRequest, type ModelInfo } from '../../../shared/api/index.js';
import type {
  AdapterCompletion,
  NativeAnswer,
  NativeCall,
  ProviderAdapter,
  StreamPart,
  UpstreamTarget,
} from '../adapter.js';
import { malformedUpstream, parseAnswer, parseEventJson } from '../http/upstream-errors.js';
import {
  UpstreamHttp,
  type ProviderTarget,
  type UpstreamHttpOptions,
  type UpstreamResponse,
} from '../http/upstream-http.js';
import {
  anthropicMessageSchema,
  anthropicModelListSchema,
  anthropicVersion,
  type AnthropicRequestBody,
} from './anthropic-api.js';
import { anthropicModelCapabilities, convertAnthropicModels } from './anthropic-models.js';
import { anthropicUrl } from './anthropic-url.js';
import { buildAnthropicRequest } from './build-anthropic-request.js';
import { convertAnthropicMessage } from './convert-anthropic-message.js';
import { AnthropicStreamDecoder } from './decode-anthropic-stream.js';
import { mapAnthropicStreamError } from './map-anthropic-error.js';

export type AnthropicAdapterOptions = UpstreamHttpOptions;

export interface AnthropicAdapter extends ProviderAdapter {
  readonly kind: 'anthropic';
}

/** GET /v1/models pages; more than this many pages means something is wrong upstream. */
const maxModelPages = 20;

function headersFor(target: ProviderTarget): Record<string, string> {
  const headers: Record<string, string> = { 'anthropic-version': anthropicVersion };
  if (target.apiKey) headers['x-api-key'] = target.apiKey;
  return headers;
}

/** The caller's protocol headers passed on untranslated: its API version (else ours) and its beta features. */
const nativeHeaders = ['anthropic-version', 'anthropic-beta'] as const;

/** The Messages API's operations a caller may ask for untranslated, and their paths under /v1. */
const nativePaths: Record<string, string> = { messages: 'messages', count_tokens: 'messages/count_tokens' };

function emitsReasoning(request: ChatRequest): boolean {
  return request.reasoning?.exclude !== true;
}

export function createAnthropicAdapter(options: AnthropicAdapterOptions = {}): AnthropicAdapter {
  const http = new UpstreamHttp(options);

  function requestBody(chatRequest: ChatRequest, target: UpstreamTarget, stream: boolean): AnthropicRequestBody {
    return buildAnthropicRequest(chatRequest, {
      model: target.model,
      modelLabel: `${target.provider.id}/${target.model}`,
      providerId: target.provider.id,
      capabilities: anthropicModelCapabilities(target.model),
      stream,
    });
  }

  function post(body: AnthropicRequestBody, target: UpstreamTarget, accept: string, signal: AbortSignal) {
    return http.send({
      target,
      method: 'POST',
      url: anthropicUrl(target.provider.base_url, 'messages'),
      headers: headersFor(target),
      body,
      accept,
      signal,
    });
  }

  function streamBody(
    response: UpstreamResponse,
    target: UpstreamTarget,
    emitReasoning: boolean,
    signal: AbortSignal,
  ): AsyncIterableIterator<StreamPart> {
    const decoder = new AnthropicStreamDecoder({
      providerId: target.provider.id,
      secrets: http.secretsOf(target),
      emitReasoning,
    });
    return http.sseParts(response, target, signal, decoder);
  }

  /** A native stream's events as they came; an `error` event ends it as our (redacted) error. */
  async function* nativeEvents(
    response: UpstreamResponse,
    target: UpstreamTarget,
    signal: AbortSignal,
  ): AsyncGenerator<{ event?: string; data: string }, void, undefined> {
    for await (const event of http.sseEvents(response, target, signal)) {
      if (event.event === 'error') {
        const secrets = http.secretsOf(target);
        throw mapAnthropicStreamError(
          target.provider.id,
          parseEventJson(event.data, target.provider.id, secrets),
          secrets,
        );
      }
      yield { event: event.event, data: event.data };
    }
  }

  async function native(call: NativeCall, target: UpstreamTarget, signal: AbortSignal): Promise<NativeAnswer> {
    const path = nativePaths[call.operation];
    if (!path) throw new ApiError(500, `The anthropic adapter has no native operation "${call.operation}".`);
    const headers = headersFor(target);
    for (const name of nativeHeaders) {
      const value = call.headers?.[name];
      if (value) headers[name] = value;
    }
    const response = await http.send({
      target,
      method: 'POST',
      url: anthropicUrl(target.provider.base_url, path),
      headers,
      body: { ...call.body, model: target.model },
      accept: call.stream ? 'text/event-stream' : 'application/json',
      signal,
    });
    if (call.stream) return { events: nativeEvents(response, target, signal) };
    const json = await http.readJson(response, target, signal);
    if ((json as { type?: unknown } | null)?.type === 'error') {
      throw mapAnthropicStreamError(target.provider.id, json, http.secretsOf(target));
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      throw malformedUpstream(target.provider.id, 'answered with something that is not a JSON object');
    }
    return { whole: json as Record<string, unknown> };
  }

  return {
    kind: 'anthropic',

    native,

    async listModels(target, signal): Promise<ModelInfo[]> {
      const models: ModelInfo[] = [];
      let afterId: string | null = null;
      for (let page = 0; page < maxModelPages; page += 1) {
        const url = new URL(anthropicUrl(target.provider.base_url, 'models'));
        url.searchParams.set('limit', '1000');
        if (afterId) url.searchParams.set('after_id', afterId);
        const json = await http.getJson(target, url.toString(), headersFor(target), signal);
        const what = 'answered GET /v1/models with an unexpected shape';
        const list = parseAnswer(anthropicModelListSchema, json, target.provider.id, what);
        models.push(...convertAnthropicModels(list));
        if (!list.has_more || !list.last_id) break;
        afterId = list.last_id;
      }
      return models;
    },

    async streamChat(chatRequest, target, signal): Promise<AsyncIterable<StreamPart>> {
      const body = requestBody(chatRequest, target, true);
      const response = await post(body, target, 'text/event-stream', signal);
      return streamBody(response, target, emitsReasoning(chatRequest), signal);
    },

    async completeChat(chatRequest, target, signal): Promise<AdapterCompletion> {
      const body = requestBody(chatRequest, target, false);
      const response = await post(body, target, 'application/json', signal);
      const json = await http.readJson(response, target, signal);
      if ((json as { type?: unknown } | null)?.type === 'error') {
        throw mapAnthropicStreamError(target.provider.id, json, http.secretsOf(target));
      }
      const what = 'answered with something that is not a message';
      const message = parseAnswer(anthropicMessageSchema, json, target.provider.id, what);
      return convertAnthropicMessage(message, emitsReasoning(chatRequest));
    },

    async close(): Promise<void> {
      await http.close();
    },
  };
}
