// POST {base}/chat/completions: authenticate, validate, admit, then relay a stream or answer with one completion
// (a request without `stream` streams on /api/v1, as the interface says, and does not on /v1, as OpenAI's API).
// The work is in ./chat (no Fastify there, so it is tested without a server); this file is the glue
// between a Fastify request and a Generation. One usage row per request whose body was valid (a body that fails
// validation names no usable model and gets no row: the 400 tells the caller everything).

import type { FastifyInstance, FastifyReply } from 'fastify';
import { answerWhole, failedBeforeAnswer, type Outcome } from './chat/whole-answer.js';
import { newGenerationId, type Generation } from './chat/generation.js';
import { processingComment, relayStream, type StreamOutput } from './chat/stream-relay.js';
import type { ApiBase } from './api-bases.js';
import { authenticatedKey, presentedSecret } from './auth.js';
import type { GatewayDeps } from './deps.js';
import type { ErrorContext } from './errors.js';
import type { InFlightRequests } from './in-flight.js';
import { SseWriter } from './sse-writer.js';
import type { RetryPolicy } from './upstream-attempts.js';
import { appTitleOf, headerText, UsageRecorder } from './usage-recorder.js';
import { parseChatRequest } from './validate-chat-request.js';

export interface ChatRouteContext {
  deps: GatewayDeps;
  inFlight: InFlightRequests;
  errors: ErrorContext;
  /** Interval of `: SWITCHYARD PROCESSING` comments while the upstream is silent. */
  keepAliveMs: number;
  /** Retries and backoff of upstream attempts (upstream-attempts.ts). */
  retry?: RetryPolicy;
}

/** The response as a StreamOutput: hijacked from Fastify once it opens, SSE from then on. */
function sseOutput(reply: FastifyReply, keepAliveMs: number): StreamOutput {
  const writer = new SseWriter(reply.raw);
  return {
    get opened() {
      return writer.opened;
    },
    open() {
      reply.hijack();
      writer.open();
      writer.keepAlive(keepAliveMs, processingComment);
    },
    data: (chunk) => writer.data(chunk),
    comment: (text) => writer.comment(text),
    end: () => writer.end(),
    abandon() {
      writer.dispose();
      reply.raw.destroy();
    },
  };
}

function send(reply: FastifyReply, outcome: Outcome): FastifyReply | undefined {
  switch (outcome.kind) {
    case 'answer':
      return reply.code(200).send(outcome.body);
    case 'error':
      return reply.code(outcome.error.status).headers(outcome.error.headers).send(outcome.error.toBody());
    case 'caller-gone':
      reply.hijack(); // nobody to answer
      return undefined;
  }
}

export function registerChatCompletionsRoute(server: FastifyInstance, base: ApiBase, context: ChatRouteContext): void {
  const { deps, inFlight } = context;
  const generationContext = { providers: deps.providers, errors: context.errors, retry: context.retry };
  const streamContext = { ...generationContext, keepAliveMs: context.keepAliveMs };

  server.post(`${base.prefix}/chat/completions`, async (request, reply) => {
    const key = authenticatedKey(request);
    const chatRequest = parseChatRequest(request.body, { streamByDefault: base.streamByDefault });
    const createdAt = Date.now();
    const id = newGenerationId();
    const recorder = new UsageRecorder(deps.usage, deps.logger, {
      id,
      created_at: createdAt,
      key_id: key.id,
      app_title: appTitleOf(request),
      app_referer: headerText(request, 'http-referer'),
      model: chatRequest.model,
      streamed: chatRequest.stream,
    });
    const generation: Generation = {
      id,
      created: Math.floor(createdAt / 1000),
      request: chatRequest,
      recorder,
      signal: inFlight.controllerOf(request).signal,
      logger: deps.logger,
      callerSecrets: [presentedSecret(request) ?? ''],
    };
    try {
      deps.accounts?.admit(key.id, chatRequest); // key rules, credits, rate limits: before any upstream call
    } catch (error) {
      return send(reply, failedBeforeAnswer(generation, generationContext, error));
    }
    if (!chatRequest.stream) return send(reply, await answerWhole(generation, generationContext));
    const outcome = await relayStream(generation, streamContext, sseOutput(reply, context.keepAliveMs));
    return outcome ? send(reply, outcome) : undefined;
  });
}
