// POST {base}/chat/completions: authenticate, validate, admit, then relay a stream or answer with one completion
// (a request without `stream` streams on /api/v1, as the interface says, and does not on /v1, as OpenAI's API).
// The work is in ../pipeline (no Fastify there, so it is tested without a server); this file is the glue
// between a Fastify request and a Generation. One usage row per request whose body was valid (a body that fails
// validation names no usable model and gets no row: the 400 tells the caller everything).

import type { FastifyInstance } from 'fastify';
import type { ChatCompletion } from '../../../shared/api/index.js';
import { answerWhole } from '../pipeline/whole-answer.js';
import { relayStream } from '../pipeline/stream-relay.js';
import type { ApiBase } from '../http/api-bases.js';
import { callerOf } from '../http/caller.js';
import { noteCacheResult, sendOutcome } from '../http/reply.js';
import { chatCompletionsEncoder, sseOutput } from '../http/sse-output.js';
import { streamContextOf, type RequestContext } from '../pipeline/context.js';
import { startGeneration } from '../pipeline/start-generation.js';
import { admitWithCache } from '../pipeline/cached-admission.js';

import { parseChatRequest } from '../http/validate-chat-request.js';

/** A whole answer as the base's callers expect it. */
function completionFor(base: ApiBase) {
  return (body: ChatCompletion): ChatCompletion => {
    // OpenRouter's schema (its SDK validates it) requires the field in a whole answer; OpenAI's has it optional.
    if (base.shapes === 'openrouter') body.system_fingerprint ??= null;
    // The searches the upstream ran are the Responses API's; a chat answer has what they found as annotations.
    for (const choice of body.choices) delete choice.message.web_search_calls;
    return body;
  };
}

export function registerChatCompletionsRoute(server: FastifyInstance, base: ApiBase, context: RequestContext): void {
  const streamContext = streamContextOf(context);
  const completion = completionFor(base);

  server.post(`${base.prefix}/chat/completions`, async (request, reply) => {
    const chatRequest = parseChatRequest(request.body, { streamByDefault: base.streamByDefault });
    const generation = startGeneration(callerOf(request, context.inFlight), chatRequest, context);
    const refused = await admitWithCache(generation, context);
    noteCacheResult(reply, generation.cache?.result);
    if (refused) return sendOutcome(reply, refused);
    if (!generation.request.stream) return sendOutcome(reply, await answerWhole(generation, streamContext), completion);
    const output = sseOutput(reply, context, chatCompletionsEncoder());
    const outcome = await relayStream(generation, streamContext, output);
    return outcome ? sendOutcome(reply, outcome, completion) : undefined;
  });
}
