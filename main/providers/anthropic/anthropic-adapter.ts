// The adapter for `kind: 'anthropic'`: the Anthropic Messages API. This file is the HTTP part; every translation
// lives in the pure functions beside it.

import type { ChatRequest, ModelInfo } from '../../../shared/api/index.js';
import type { AdapterCompletion, ProviderAdapter, StreamPart, UpstreamTarget } from '../adapter.js';
import { parseAnswer } from '../http/upstream-errors.js';
import { UpstreamHttp, type UpstreamHttpOptions } from '../http/upstream-http.js';
import { anthropicMessageSchema, anthropicModelListSchema, type AnthropicRequestBody } from './anthropic-api.js';
import { anthropicModelCapabilities, convertAnthropicModels } from './anthropic-models.js';
import { anthropicNative } from './anthropic-native.js';
import { anthropicHeaders, anthropicUrl } from './anthropic-url.js';
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
      headers: anthropicHeaders(target),
      body,
      accept,
      signal,
    });
  }

  return {
    kind: 'anthropic',

    native: (call, target, signal) => anthropicNative(http, call, target, signal),

    async listModels(target, signal): Promise<ModelInfo[]> {
      const models: ModelInfo[] = [];
      let afterId: string | null = null;
      for (let page = 0; page < maxModelPages; page += 1) {
        const url = new URL(anthropicUrl(target.provider.base_url, 'models'));
        url.searchParams.set('limit', '1000');
        if (afterId) url.searchParams.set('after_id', afterId);
        const json = await http.getJson(target, url.toString(), anthropicHeaders(target), signal);
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
      const decoder = new AnthropicStreamDecoder({
        providerId: target.provider.id,
        secrets: http.secretsOf(target),
        emitReasoning: emitsReasoning(chatRequest),
      });
      return http.sseParts(response, target, signal, decoder);
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
