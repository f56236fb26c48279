// The routes of the Gemini API, at the root as Google serves it (/v1beta, and its stable version /v1) and under /api
// (/api/v1beta, /api/v1):
//   POST models/{model}:generateContent          one GenerateContentResponse
//   POST models/{model}:streamGenerateContent    ?alt=sse: one GenerateContentResponse per `data:` event
//   POST models/{model}:countTokens              {totalTokens}: the upstream's count (google-kind), else an estimate
//   GET  models, models/{model}                  Google's model-list shape; on /v1 and /api/v1, where the same paths
//                                                are OpenAI's (models-route.ts), only for a request that authenticates
//                                                the Google way (gemini-client.ts)
// The key comes as `x-goog-api-key` or `?key=` (auth.ts); every error is Google's `{error: {code, message, status}}`.
// Each field is taken under either of its names (`inlineData` or `inline_data`), as Google takes it, and renamed to its
// JSON name (gemini-request.ts). A model served by a google-kind provider gets the body so renamed but otherwise
// untranslated (gemini-native.ts); any other is translated to a chat request and back (gemini-request.ts,
// gemini-response.ts, gemini-stream-encoder.ts). Either way it runs through the same keys, rules, credits, limits,
// retries, usage row and cost as chat completions.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../../shared/api/index.js';
import { apiBases, geminiBases } from '../../http/api-bases.js';
import { authenticatedKey } from '../../http/auth.js';
import { callerOf } from '../../http/caller.js';
import { processingKeepAlive } from '../../http/exchange.js';
import { noteCacheResult, sendOutcome } from '../../http/reply.js';
import { rawSseOutput, sseOutput } from '../../http/sse-output.js';
import { streamContextOf, type RequestContext } from '../../pipeline/context.js';
import { answerNativeWhole, relayNativeStream, servedNatively } from '../../pipeline/native-relay.js';
import { admitGeneration, startGeneration } from '../../pipeline/start-generation.js';
import { admitWithCache } from '../../pipeline/cached-admission.js';

import { relayStream } from '../../pipeline/stream-relay.js';
import { estimateUsage, GeneratedText } from '../../pipeline/usage-estimate.js';
import { answerWhole } from '../../pipeline/whole-answer.js';
import { geminiNativeCall, geminiNativeProtocol, type GeminiMethod } from './gemini-native.js';
import {
  chatRequestOf,
  parseCountTokensRequest,
  parseGenerateContentRequest,
  translateGeminiRequest,
} from './gemini-request.js';
import { convertChatCompletion } from './gemini-response.js';
import { addGeminiClientConstraint, geminiClientsOnly } from './gemini-client.js';
import { geminiStreamEncoder } from './gemini-stream-encoder.js';
import { geminiModelEntries, geminiModelPage } from './model-list.js';
import { modelOfPath, parseModelCall } from './model-path.js';

type PathParams = { Params: { '*': string }; Querystring: Record<string, string | undefined> };

const config = { errorShape: 'gemini' as const };

export function registerGeminiRoutes(server: FastifyInstance, context: RequestContext): void {
  const { deps } = context;
  const streamContext = streamContextOf(context);

  async function generate(
    request: FastifyRequest<PathParams>,
    reply: FastifyReply,
    model: string,
    method: GeminiMethod,
  ) {
    const stream = method === 'streamGenerateContent';
    if (stream && request.query.alt !== 'sse') {
      throw new ApiError(400, 'Invalid request: streamGenerateContent is served as server-sent events; add ?alt=sse.');
    }
    const { parsed, body } = parseGenerateContentRequest(request.body);
    const caller = callerOf(request, context.inFlight, { appFromUserAgent: true });
    let generation = startGeneration(caller, chatRequestOf(parsed, { model, stream }), context);
    const native = await servedNatively(generation, streamContext, 'google');
    if (!native) generation = startGeneration(caller, translateGeminiRequest(parsed, { model, stream }), context);
    // Native answers are relayed as they come and not cached (decision 031).
    const refused = await (native ? admitGeneration(generation, context) : admitWithCache(generation, context));
    noteCacheResult(reply, generation.cache?.result);
    if (refused) return sendOutcome(reply, refused);

    if (native) {
      const protocol = geminiNativeProtocol();
      const callFor = geminiNativeCall(method, body);
      if (!stream) return sendOutcome(reply, await answerNativeWhole(generation, streamContext, protocol, callFor));
      const output = rawSseOutput(reply, context, processingKeepAlive);
      const outcome = await relayNativeStream(generation, streamContext, protocol, callFor, output);
      return outcome ? sendOutcome(reply, outcome) : undefined;
    }
    if (!stream) return sendOutcome(reply, await answerWhole(generation, streamContext), convertChatCompletion);
    const output = sseOutput(reply, context, geminiStreamEncoder());
    const outcome = await relayStream(generation, streamContext, output);
    return outcome ? sendOutcome(reply, outcome) : undefined;
  }

  /** The upstream's own count for a google-kind provider; a tokenizer estimate for any other (no usage row). */
  async function countTokens(request: FastifyRequest<PathParams>, model: string) {
    const { parsed, body } = parseCountTokensRequest(request.body);
    const canonical = deps.providers.canonicalModel(model);
    const caller = callerOf(request, context.inFlight);
    if (deps.accounts && !deps.accounts.allowsModel(caller.keyId, canonical)) {
      throw new ApiError(403, `This API key may not use model "${canonical}".`);
    }
    const { adapter, target } = await deps.providers.resolve(canonical);
    if (adapter.kind === 'google' && adapter.native) {
      const call = geminiNativeCall('countTokens', body)(target);
      const answer = await adapter.native(call, { ...target, callerSecrets: [caller.secret] }, caller.signal);
      if ('whole' in answer) return answer.whole;
      throw new ApiError(502, `Provider "${target.provider.id}" streamed an answer to countTokens.`);
    }
    const usage = await estimateUsage(chatRequestOf(parsed, { model: canonical, stream: false }), new GeneratedText());
    return { totalTokens: usage.prompt_tokens };
  }

  /** The models the calling key may use, aliases first, in Google's shape. */
  async function modelEntries(request: FastifyRequest) {
    const keyId = authenticatedKey(request).id;
    const models = (await deps.providers.listModels()).filter(
      (model) => !deps.accounts || deps.accounts.allowsModel(keyId, model.id),
    );
    return geminiModelEntries(models, deps.providers.listAliases());
  }

  async function listModels(request: FastifyRequest<PathParams>) {
    return geminiModelPage(await modelEntries(request), request.query);
  }

  async function getModel(request: FastifyRequest<PathParams>) {
    const model = modelOfPath(request.params['*']);
    const entry = (await modelEntries(request)).find((candidate) => candidate.name === `models/${model}`);
    if (!entry) throw new ApiError(404, `models/${model} is not found (or this API key may not use it).`);
    return entry;
  }

  async function callModel(request: FastifyRequest<PathParams>, reply: FastifyReply) {
    const { model, method } = parseModelCall(request.params['*']);
    switch (method) {
      case 'generateContent':
      case 'streamGenerateContent':
        return generate(request, reply, model, method);
      case 'countTokens':
        return countTokens(request, model);
      default:
        throw new ApiError(
          404,
          `The Gemini API's method "${method ?? ''}" is not served: Switchyard serves generateContent, streamGenerateContent and countTokens.`,
        );
    }
  }

  for (const base of geminiBases) {
    server.get<PathParams>(`${base}/models`, { config }, listModels);
    server.get<PathParams>(`${base}/models/*`, { config }, getModel);
    server.post<PathParams>(`${base}/models/*`, { config }, callModel);
  }

  // Google's v1 beside OpenAI's: the calls are Google's alone; the model list only for Google's clients.
  addGeminiClientConstraint(server);
  for (const { prefix } of apiBases) {
    server.get<PathParams>(`${prefix}/models`, { config, ...geminiClientsOnly }, listModels);
    server.get<PathParams>(`${prefix}/models/*`, { config, ...geminiClientsOnly }, getModel);
    server.post<PathParams>(`${prefix}/models/*`, { config }, callModel);
  }
}
