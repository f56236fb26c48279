// The adapter for `kind: 'google'`: the Gemini API (generativelanguage.googleapis.com). This file is the HTTP part;
// every translation lives in the pure functions beside it.

import { ApiError, type ChatRequest, type ModelInfo } from '../../../shared/api/index.js';
import type {
  AdapterCompletion,
  NativeAnswer,
  NativeCall,
  ProviderAdapter,
  StreamPart,
  UpstreamTarget,
} from '../adapter.js';
import { malformedUpstream, mapUpstreamErrorPayload, parseAnswer, parseEventJson } from '../http/upstream-errors.js';
import {
  UpstreamHttp,
  type ProviderTarget,
  type UpstreamHttpOptions,
  type UpstreamResponse,
} from '../http/upstream-http.js';
import { buildGeminiRequest } from './build-gemini-request.js';
import { convertGeminiResponse } from './convert-gemini-response.js';
import { GeminiStreamDecoder, type GeminiDecoderContext } from './decode-gemini-stream.js';
import { geminiModelListSchema, type GeminiRequestBody } from './gemini-api.js';
import { convertGeminiModels, geminiModelCapabilities } from './gemini-models.js';
import { buildGeminiEmbeddingsBody, convertGeminiEmbeddings, geminiEmbeddingsSchema } from './gemini-embeddings.js';
import { geminiModelPath, geminiUrl } from './gemini-url.js';
import { mapGeminiError } from './map-gemini-error.js';

export interface GoogleAdapterOptions extends UpstreamHttpOptions {
  /** Ids for function calls that come without one (tests make them predictable). */
  createToolCallId?: () => string;
}

export interface GoogleAdapter extends ProviderAdapter {
  readonly kind: 'google';
}

/** The Gemini API's methods a caller may call untranslated (NativeCall.operation). */
const nativeOperations = new Set(['generateContent', 'streamGenerateContent', 'countTokens']);

/** GET /v1beta/models pages; more than this many pages means something is wrong upstream. */
const maxModelPages = 20;

function headersFor(target: ProviderTarget): Record<string, string> {
  return target.apiKey ? { 'x-goog-api-key': target.apiKey } : {};
}

export function createGoogleAdapter(options: GoogleAdapterOptions = {}): GoogleAdapter {
  const http = new UpstreamHttp(options, mapGeminiError);

  function requestBody(chatRequest: ChatRequest, target: UpstreamTarget): GeminiRequestBody {
    return buildGeminiRequest(chatRequest, {
      model: target.model,
      modelLabel: `${target.provider.id}/${target.model}`,
      providerId: target.provider.id,
      capabilities: geminiModelCapabilities(target.model),
    });
  }

  function decoderContext(chatRequest: ChatRequest, target: UpstreamTarget): GeminiDecoderContext {
    const context: GeminiDecoderContext = {
      providerId: target.provider.id,
      secrets: http.secretsOf(target),
      emitReasoning: chatRequest.reasoning?.exclude !== true,
    };
    if (options.createToolCallId) context.createToolCallId = options.createToolCallId;
    return context;
  }

  async function* streamBody(
    response: UpstreamResponse,
    target: UpstreamTarget,
    context: GeminiDecoderContext,
    signal: AbortSignal,
  ): AsyncGenerator<StreamPart, void, undefined> {
    const decoder = new GeminiStreamDecoder(context);
    for await (const event of http.sseEvents(response, target, signal)) yield* decoder.accept(event.data);
    yield* decoder.end();
  }

  /** A native stream's events as they came; an `error` event (Google sends one mid-stream) becomes our error. */
  async function* nativeEvents(
    response: UpstreamResponse,
    target: UpstreamTarget,
    signal: AbortSignal,
  ): AsyncGenerator<{ event?: string; data: string }, void, undefined> {
    const secrets = http.secretsOf(target);
    for await (const event of http.sseEvents(response, target, signal)) {
      if (event.data.trim() === '') continue;
      if (event.data.includes('"error"')) {
        const json = parseEventJson(event.data, target.provider.id, secrets) as { error?: { code?: unknown } } | null;
        if (json?.error) {
          const code = typeof json.error.code === 'number' ? json.error.code : undefined;
          throw mapUpstreamErrorPayload(target.provider.id, json, secrets, code);
        }
      }
      yield event.event ? { event: event.event, data: event.data } : { data: event.data };
    }
  }

  return {
    kind: 'google',

    async listModels(target, signal): Promise<ModelInfo[]> {
      const models: ModelInfo[] = [];
      let pageToken: string | null = null;
      for (let page = 0; page < maxModelPages; page += 1) {
        const query: Record<string, string> = { pageSize: '1000' };
        if (pageToken) query.pageToken = pageToken;
        const url = geminiUrl(target.provider.base_url, 'models', query);
        const json = await http.getJson(target, url, headersFor(target), signal);
        const what = 'answered GET /v1beta/models with an unexpected shape';
        const list = parseAnswer(geminiModelListSchema, json, target.provider.id, what);
        models.push(...convertGeminiModels(list));
        pageToken = list.nextPageToken ?? null;
        if (!pageToken) break;
      }
      return models;
    },

    async streamChat(chatRequest, target, signal): Promise<AsyncIterable<StreamPart>> {
      const body = requestBody(chatRequest, target);
      const response = await http.send({
        target,
        method: 'POST',
        url: geminiUrl(target.provider.base_url, `${geminiModelPath(target.model)}:streamGenerateContent`, {
          alt: 'sse',
        }),
        headers: headersFor(target),
        body,
        accept: 'text/event-stream',
        signal,
      });
      return streamBody(response, target, decoderContext(chatRequest, target), signal);
    },

    async completeChat(chatRequest, target, signal): Promise<AdapterCompletion> {
      const body = requestBody(chatRequest, target);
      const response = await http.send({
        target,
        method: 'POST',
        url: geminiUrl(target.provider.base_url, `${geminiModelPath(target.model)}:generateContent`),
        headers: headersFor(target),
        body,
        accept: 'application/json',
        signal,
      });
      return convertGeminiResponse(await http.readJson(response, target, signal), decoderContext(chatRequest, target));
    },

    async embed(request, target, signal) {
      const modelPath = geminiModelPath(target.model);
      const body = buildGeminiEmbeddingsBody(request, modelPath, `${target.provider.id}/${target.model}`);
      const response = await http.send({
        target,
        method: 'POST',
        url: geminiUrl(target.provider.base_url, `${modelPath}:batchEmbedContents`),
        headers: headersFor(target),
        body,
        accept: 'application/json',
        signal,
      });
      const json = await http.readJson(response, target, signal);
      const what = 'answered with something that is not embeddings';
      return convertGeminiEmbeddings(
        parseAnswer(geminiEmbeddingsSchema, json, target.provider.id, what),
        request.encoding_format,
      );
    },

    async native(call: NativeCall, target: UpstreamTarget, signal: AbortSignal): Promise<NativeAnswer> {
      if (!nativeOperations.has(call.operation)) {
        throw new ApiError(400, `The Gemini API has no method "${call.operation}" Switchyard passes on.`);
      }
      const response = await http.send({
        target,
        method: 'POST',
        url: geminiUrl(
          target.provider.base_url,
          `${geminiModelPath(target.model)}:${call.operation}`,
          call.stream ? { alt: 'sse' } : {},
        ),
        headers: headersFor(target),
        body: call.body,
        accept: call.stream ? 'text/event-stream' : 'application/json',
        signal,
      });
      if (call.stream) return { events: nativeEvents(response, target, signal) };
      const json = await http.readJson(response, target, signal);
      if (json === null || typeof json !== 'object' || Array.isArray(json)) {
        throw malformedUpstream(target.provider.id, 'answered with JSON that is not an object');
      }
      return { whole: json as Record<string, unknown> };
    },

    async close(): Promise<void> {
      await http.close();
    },
  };
}
