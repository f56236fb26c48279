// The routes of Anthropic Messages: POST {/v1, /api/v1}/messages and …/messages/count_tokens. A request whose model
// an anthropic-kind provider serves goes through untranslated (native-messages.ts: the caller's body with the
// upstream's model name, `anthropic-version` and `anthropic-beta` passed on, the events as they came); any other is
// translated to a chat generation (messages-request.ts) and answered as a Message or Anthropic's event stream
// (message-object.ts, messages-stream-encoder.ts). Both run through the same admission, routing, retries, usage row
// and cost as chat completions, with the caller's user agent as the app when it sends no X-Title (Claude Code sends
// `claude-cli/…`). Every error is Anthropic's `{type: 'error', error: {type, message}}`. A request without `stream`
// gets one Message on both bases, as Anthropic's API does.
//
// count_tokens costs nothing and writes no usage row: it is answered by the upstream's own count_tokens for an
// anthropic-kind provider, else by the gateway's tokenizer estimate (usage-estimate.ts) of the translated prompt.
// Only a model the key may use is counted.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../../shared/api/index.js';
import { apiBases } from '../../http/api-bases.js';
import { callerOf } from '../../http/caller.js';
import { noteCacheResult, sendOutcome } from '../../http/reply.js';
import { rawSseOutput, sseOutput } from '../../http/sse-output.js';
import { streamContextOf, type RequestContext } from '../../pipeline/context.js';
import { answerNativeWhole, relayNativeStream, servedNatively } from '../../pipeline/native-relay.js';
import { admitGeneration, startGeneration, withCanonicalModels } from '../../pipeline/start-generation.js';
import { admitWithCache } from '../../pipeline/cached-admission.js';

import { relayStream } from '../../pipeline/stream-relay.js';
import { estimateUsage, GeneratedText } from '../../pipeline/usage-estimate.js';
import { answerWhole, failedBeforeAnswer } from '../../pipeline/whole-answer.js';
import { messageIdOf, messageOf } from './message-object.js';
import { parseCountTokensRequest, parseMessagesRequest, translateMessagesRequest } from './messages-request.js';
import { AnthropicStreamEncoder } from './messages-stream-encoder.js';
import { anthropicNativeProtocol } from './native-messages.js';

/** The caller's headers an anthropic-kind upstream gets as they came. */
const forwardedHeaders = ['anthropic-version', 'anthropic-beta'] as const;

function protocolHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of forwardedHeaders) {
    const value = request.headers[name];
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text) headers[name] = text;
  }
  return headers;
}

/** The caller's body as it came: what an anthropic-kind upstream gets (the adapter sets the model). */
function callerBody(request: FastifyRequest): Record<string, unknown> {
  return request.body as Record<string, unknown>;
}

export function registerAnthropicRoutes(server: FastifyInstance, context: RequestContext): void {
  const { deps } = context;
  const streamContext = streamContextOf(context);
  const config = { errorShape: 'anthropic' as const };

  for (const base of apiBases) {
    server.post(`${base.prefix}/messages`, { config }, async (request, reply) => {
      const { chatRequest, untranslatable } = translateMessagesRequest(parseMessagesRequest(request.body));
      const caller = callerOf(request, context.inFlight, { appFromUserAgent: true });
      const generation = startGeneration(caller, chatRequest, context);
      // Native answers are relayed as they come and not cached (decision 031).
      const native = await servedNatively(generation, streamContext, 'anthropic');
      const refused = await (native ? admitGeneration(generation, context) : admitWithCache(generation, context));
      noteCacheResult(reply, generation.cache?.result);
      if (refused) return sendOutcome(reply, refused);
      const stream = generation.request.stream;

      if (native) {
        const protocol = anthropicNativeProtocol();
        const callFor = () => ({
          operation: 'messages',
          body: callerBody(request),
          stream,
          headers: protocolHeaders(request),
        });
        if (!stream) return sendOutcome(reply, await answerNativeWhole(generation, streamContext, protocol, callFor));
        const output = rawSseOutput(reply, context, protocol.keepAlive);
        const outcome = await relayNativeStream(generation, streamContext, protocol, callFor, output);
        return outcome ? sendOutcome(reply, outcome) : undefined;
      }

      if (untranslatable) {
        const invalid = new ApiError(400, `Invalid request: ${untranslatable}.`);
        return sendOutcome(reply, failedBeforeAnswer(generation, streamContext, invalid));
      }
      const id = messageIdOf(generation.id);
      if (!stream) {
        return sendOutcome(reply, await answerWhole(generation, streamContext), (completion) =>
          messageOf(completion, id),
        );
      }
      const output = sseOutput(reply, context, new AnthropicStreamEncoder(id, generation.request.model));
      const outcome = await relayStream(generation, streamContext, output);
      return outcome ? sendOutcome(reply, outcome, (completion) => messageOf(completion, id)) : undefined;
    });

    server.post(`${base.prefix}/messages/count_tokens`, { config }, async (request) => {
      const { chatRequest } = translateMessagesRequest(parseCountTokensRequest(request.body));
      const { model } = withCanonicalModels(chatRequest, context);
      const caller = callerOf(request, context.inFlight);
      if (deps.accounts && !deps.accounts.allowsModel(caller.keyId, model)) {
        throw new ApiError(403, `This API key may not use the model "${model}".`);
      }
      const { adapter, target } = await deps.providers.resolve(model);
      if (adapter.kind === 'anthropic' && adapter.native) {
        const call = {
          operation: 'count_tokens',
          body: callerBody(request),
          stream: false,
          headers: protocolHeaders(request),
        };
        const answer = await adapter.native(call, { ...target, callerSecrets: [caller.secret] }, caller.signal);
        if ('whole' in answer) return answer.whole;
        throw new ApiError(502, `Provider "${target.provider.id}" streamed its token count.`);
      }
      const usage = await estimateUsage(chatRequest, new GeneratedText());
      return { input_tokens: usage.prompt_tokens };
    });
  }
}
