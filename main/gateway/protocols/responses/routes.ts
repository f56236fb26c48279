// The routes of the OpenAI Responses API (POST /v1/responses and /api/v1/responses): the request translated to a
// chat generation (responses-request.ts), run through the same admission, routing, retries, usage row and cost as
// chat completions, and answered as one Response object or as the Responses API's event stream. Every error before
// the stream opens is OpenAI's `{error: {message, type, param, code}}` with its status. A request without `stream`
// gets one object on both bases, as OpenAI's API does. Hosted tools are prepared per attempt (hosted-tools.ts): what
// the answering provider could not run is named in X-Switchyard-Dropped-Tools and the usage row.

import type { FastifyInstance, FastifyReply } from 'fastify';
import { apiBases } from '../../http/api-bases.js';
import { sendError } from '../../http/auth.js';
import type { ChatRouteContext } from '../../routes/chat-completions-route.js';
import { relayStream } from '../../pipeline/stream-relay.js';
import { answerWhole, type Outcome } from '../../pipeline/whole-answer.js';
import { admitGeneration, startGeneration } from '../../pipeline/start-generation.js';
import type { Generation } from '../../pipeline/generation.js';
import { sseOutput } from '../../http/sse-output.js';
import { droppedToolsHeader, hostedToolsFor } from './hosted-tools.js';
import { ResponseIds, responseOf } from './response-object.js';
import { translateResponsesRequest, type ResponsesTranslation } from './responses-request.js';
import { ResponsesStreamEncoder } from './responses-stream-encoder.js';

function send(
  reply: FastifyReply,
  outcome: Outcome,
  answer: (outcome: Extract<Outcome, { kind: 'answer' }>) => unknown,
): FastifyReply | undefined {
  switch (outcome.kind) {
    case 'answer':
      return reply.code(200).send(answer(outcome));
    case 'error':
      return sendError(reply, outcome.error);
    case 'caller-gone':
      reply.hijack(); // nobody to answer
      return undefined;
  }
}

/** Each attempt's provider gets the hosted tools it can run; the others are named in the header and the usage row. */
function prepareHostedTools(generation: Generation, translation: ResponsesTranslation, reply: FastifyReply): void {
  const leftOut = (dropped: readonly string[]) => {
    generation.recorder.droppedTools = dropped;
    // A stream opened early (keep-alives while the upstream was slow) has sent its headers already.
    if (reply.raw.headersSent) return;
    if (dropped.length > 0) reply.raw.setHeader(droppedToolsHeader, dropped.join(', '));
    else reply.raw.removeHeader(droppedToolsHeader);
  };
  leftOut(translation.hosted.dropped);
  generation.prepareAttempt = (request, target) => {
    const prepared = hostedToolsFor(request, translation.hosted, target.provider, target.model);
    leftOut(prepared.dropped);
    return prepared.request;
  };
}

export function registerResponsesRoutes(server: FastifyInstance, context: ChatRouteContext): void {
  const generationContext = { providers: context.deps.providers, errors: context.errors, retry: context.retry };
  const streamContext = { ...generationContext, keepAliveMs: context.keepAliveMs };

  for (const base of apiBases) {
    server.post(`${base.prefix}/responses`, { config: { errorShape: 'openai' } }, async (request, reply) => {
      const translation: ResponsesTranslation = translateResponsesRequest(request.body);
      const generation = startGeneration(request, translation.chatRequest, context, { appFromUserAgent: true });
      prepareHostedTools(generation, translation, reply);
      const ids = new ResponseIds(generation.id);
      const toResponse = (outcome: Extract<Outcome, { kind: 'answer' }>) =>
        responseOf(outcome.body, translation, { ids, createdAt: generation.created });
      const refused = await admitGeneration(generation, context);
      if (refused) return send(reply, refused, toResponse);
      if (!generation.request.stream) return send(reply, await answerWhole(generation, generationContext), toResponse);
      const encoder = new ResponsesStreamEncoder(translation, ids, generation.created);
      const output = sseOutput(reply, context, encoder);
      const outcome = await relayStream(generation, streamContext, output);
      return outcome ? send(reply, outcome, toResponse) : undefined;
    });
  }
}
