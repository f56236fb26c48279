// The routes of the OpenAI Responses API (POST /v1/responses and /api/v1/responses): the request translated to a
// chat generation (responses-request.ts), run through the same admission, routing, retries, usage row and cost as
// chat completions, and answered as one Response object or as the Responses API's event stream. Every error before
// the stream opens is OpenAI's `{error: {message, type, param, code}}` with its status. A request without `stream`
// gets one object on both bases, as OpenAI's API does. Hosted tools are prepared per attempt (hosted-tools.ts): what
// the answering provider could not run is named in X-Switchyard-Dropped-Tools and the usage row.

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ChatCompletion } from '../../../../shared/api/index.js';
import { apiBases } from '../../http/api-bases.js';
import { callerOf } from '../../http/caller.js';
import { noteCacheResult, sendOutcome } from '../../http/reply.js';
import { sseOutput } from '../../http/sse-output.js';
import { streamContextOf, type RequestContext } from '../../pipeline/context.js';
import type { Generation } from '../../pipeline/generation.js';
import { startGeneration } from '../../pipeline/start-generation.js';
import { admitWithCache } from '../../pipeline/cached-admission.js';

import { relayStream } from '../../pipeline/stream-relay.js';
import { answerWhole } from '../../pipeline/whole-answer.js';
import { droppedToolsHeader, hostedToolsFor } from './hosted-tools.js';
import { ResponseIds, responseOf } from './response-object.js';
import { translateResponsesRequest, type ResponsesTranslation } from './responses-request.js';
import { ResponsesStreamEncoder } from './responses-stream-encoder.js';

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

export function registerResponsesRoutes(server: FastifyInstance, context: RequestContext): void {
  const streamContext = streamContextOf(context);

  for (const base of apiBases) {
    server.post(`${base.prefix}/responses`, { config: { errorShape: 'openai' } }, async (request, reply) => {
      const translation: ResponsesTranslation = translateResponsesRequest(request.body);
      const caller = callerOf(request, context.inFlight, { appFromUserAgent: true });
      const generation = startGeneration(caller, translation.chatRequest, context);
      prepareHostedTools(generation, translation, reply);
      const ids = new ResponseIds(generation.id);
      const toResponse = (completion: ChatCompletion) =>
        responseOf(completion, translation, { ids, createdAt: generation.created });
      const refused = await admitWithCache(generation, context);
      noteCacheResult(reply, generation.cache?.result);
      if (refused) return sendOutcome(reply, refused, toResponse);
      if (!generation.request.stream)
        return sendOutcome(reply, await answerWhole(generation, streamContext), toResponse);
      const encoder = new ResponsesStreamEncoder(translation, ids, generation.created);
      const output = sseOutput(reply, context, encoder);
      const outcome = await relayStream(generation, streamContext, output);
      return outcome ? sendOutcome(reply, outcome, toResponse) : undefined;
    });
  }
}
