// POST {base}/chat/completions: authenticate, validate, admit, then relay a stream or answer with one completion
// (a request without `stream` streams on /api/v1, as the interface says, and does not on /v1, as OpenAI's API).
// The work is in ./chat (no Fastify there, so it is tested without a server); this file is the glue
// between a Fastify request and a Generation. One usage row per request whose body was valid (a body that fails
// validation names no usable model and gets no row: the 400 tells the caller everything).

import type { FastifyInstance, FastifyReply } from 'fastify';
import { answerWhole, type Outcome } from '../pipeline/whole-answer.js';
import { relayStream } from '../pipeline/stream-relay.js';
import type { ApiBase } from '../http/api-bases.js';
import { sendError } from '../http/auth.js';
import type { GatewayDeps } from '../deps.js';
import type { ErrorContext } from '../http/errors.js';
import type { InFlightRequests } from '../http/in-flight.js';
import { chatCompletionsEncoder, sseOutput } from '../http/sse-output.js';
import { admitGeneration, startGeneration } from '../pipeline/start-generation.js';
import type { RetryPolicy } from '../pipeline/upstream-attempts.js';
import { parseChatRequest } from '../http/validate-chat-request.js';

export interface ChatRouteContext {
  deps: GatewayDeps;
  inFlight: InFlightRequests;
  errors: ErrorContext;
  /** Interval of `: SWITCHYARD PROCESSING` comments while the upstream is silent. */
  keepAliveMs: number;
  /** A stream whose caller takes nothing for this long is ended as if the caller had left; 0 = never. */
  stalledCallerMs: number;
  /** Retries and backoff of upstream attempts (upstream-attempts.ts). */
  retry?: RetryPolicy;
}

function send(reply: FastifyReply, outcome: Outcome, base: ApiBase): FastifyReply | undefined {
  switch (outcome.kind) {
    case 'answer':
      // OpenRouter's schema (its SDK validates it) requires the field in a whole answer; OpenAI's has it optional.
      if (base.shapes === 'openrouter') outcome.body.system_fingerprint ??= null;
      // The searches the upstream ran are the Responses API's; a chat answer has what they found as annotations.
      for (const choice of outcome.body.choices) delete choice.message.web_search_calls;
      return reply.code(200).send(outcome.body);
    case 'error':
      return sendError(reply, outcome.error);
    case 'caller-gone':
      reply.hijack(); // nobody to answer
      return undefined;
  }
}

export function registerChatCompletionsRoute(server: FastifyInstance, base: ApiBase, context: ChatRouteContext): void {
  const { deps } = context;
  const generationContext = { providers: deps.providers, errors: context.errors, retry: context.retry };
  const streamContext = { ...generationContext, keepAliveMs: context.keepAliveMs };

  server.post(`${base.prefix}/chat/completions`, async (request, reply) => {
    const chatRequest = parseChatRequest(request.body, { streamByDefault: base.streamByDefault });
    const generation = startGeneration(request, chatRequest, context);
    const refused = await admitGeneration(generation, context);
    if (refused) return send(reply, refused, base);
    if (!generation.request.stream) return send(reply, await answerWhole(generation, generationContext), base);
    const output = sseOutput(reply, context, chatCompletionsEncoder());
    const outcome = await relayStream(generation, streamContext, output);
    return outcome ? send(reply, outcome, base) : undefined;
  });
}
