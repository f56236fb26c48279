// The routes of the OpenAI Responses API (POST /v1/responses and /api/v1/responses): the request translated to a
// chat generation (responses-request.ts), run through the same admission, routing, retries, usage row and cost as
// chat completions, and answered as one Response object or as the Responses API's event stream. Every error before
// the stream opens is OpenAI's `{error: {message, type, param, code}}` with its status. A request without `stream`
// gets one object on both bases, as OpenAI's API does.

import type { FastifyInstance, FastifyReply } from 'fastify';
import { apiBases } from '../../api-bases.js';
import { sendError } from '../../auth.js';
import type { ChatRouteContext } from '../../chat-completions-route.js';
import { relayStream } from '../../chat/stream-relay.js';
import { answerWhole, type Outcome } from '../../chat/whole-answer.js';
import { admitGeneration, startGeneration } from '../../start-generation.js';
import { sseOutput } from '../sse-output.js';
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

export function registerResponsesRoutes(server: FastifyInstance, context: ChatRouteContext): void {
  const generationContext = { providers: context.deps.providers, errors: context.errors, retry: context.retry };
  const streamContext = { ...generationContext, keepAliveMs: context.keepAliveMs };

  for (const base of apiBases) {
    server.post(`${base.prefix}/responses`, { config: { errorShape: 'openai' } }, async (request, reply) => {
      const translation: ResponsesTranslation = translateResponsesRequest(request.body);
      const generation = startGeneration(request, translation.chatRequest, context, { appFromUserAgent: true });
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
