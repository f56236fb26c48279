// POST /api/v1/chat/completions: validate, resolve the model, then relay a stream (default) or answer with one
// completion. One usage row per request whose body was valid (a body that fails validation names no usable
// model and gets no row: the 400 tells the caller everything).

import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { ApiError, type ChatCompletion, type ChatRequest } from '../../shared/api/index.js';
import type { ResolvedModel } from '../providers/registry.js';
import { authenticatedKey } from './auth.js';
import { ChunkAssembler } from './chunk-assembler.js';
import type { GatewayDeps } from './deps.js';
import { toApiError, type ErrorContext } from './errors.js';
import { ShuttingDownError, type InFlightRequests } from './in-flight.js';
import { SseWriter } from './sse-writer.js';
import { headerText, UsageRecorder } from './usage-recorder.js';
import { parseChatRequest } from './validate-chat-request.js';

export interface ChatRouteContext {
  deps: GatewayDeps;
  inFlight: InFlightRequests;
  errors: ErrorContext;
  /** Interval of `: SWITCHYARD PROCESSING` comments while the upstream is silent. */
  keepAliveMs: number;
}

/** Status recorded when a non-streamed request's caller went away before the answer (nginx's convention). */
const callerGoneStatus = 499;

export function newGenerationId(): string {
  return `gen-${Math.floor(Date.now() / 1000)}-${randomBytes(12).toString('base64url')}`;
}

interface Generation {
  id: string;
  created: number;
  request: ChatRequest;
  recorder: UsageRecorder;
  signal: AbortSignal;
  logger: Logger;
}

function abortReason(signal: AbortSignal): 'caller-gone' | 'shutdown' | null {
  if (!signal.aborted) return null;
  return signal.reason instanceof ShuttingDownError ? 'shutdown' : 'caller-gone';
}

function shuttingDown(): ApiError {
  return new ApiError(503, new ShuttingDownError().message);
}

export function registerChatCompletionsRoute(server: FastifyInstance, context: ChatRouteContext): void {
  const { deps, inFlight } = context;

  server.post('/api/v1/chat/completions', async (request, reply) => {
    const key = authenticatedKey(request);
    const chatRequest = parseChatRequest(request.body);
    const createdAt = Date.now();
    const id = newGenerationId();
    const recorder = new UsageRecorder(deps.usage, deps.logger, {
      id,
      created_at: createdAt,
      key_id: key.id,
      app_title: headerText(request, 'x-title'),
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
    };
    let resolved: ResolvedModel;
    try {
      resolved = await deps.providers.resolve(chatRequest.model);
      recorder.provider = resolved.target.provider.id;
    } catch (error) {
      return failBeforeAnswer(generation, reply, error);
    }
    if (chatRequest.stream) return relayStream(generation, resolved, reply);
    return answerWhole(generation, resolved, reply);
  });

  /** An error before anything was sent: an ordinary JSON error with the mapped status (or nothing, caller gone). */
  function failBeforeAnswer(generation: Generation, reply: FastifyReply, error: unknown): FastifyReply | undefined {
    const reason = abortReason(generation.signal);
    if (reason === 'caller-gone') {
      generation.recorder.record({ status: callerGoneStatus, finishReason: 'cancelled' });
      reply.hijack(); // nobody to answer
      return undefined;
    }
    const apiError = reason === 'shutdown' ? shuttingDown() : toApiError(error, context.errors);
    if (apiError.status >= 500)
      generation.logger.warn({ status: apiError.status, err: apiError.message }, 'chat failed');
    generation.recorder.record({ status: apiError.status, finishReason: null, error: apiError.message });
    return reply.code(apiError.status).headers(apiError.headers).send(apiError.toBody());
  }

  async function answerWhole(
    generation: Generation,
    { adapter, target }: ResolvedModel,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    let completion;
    try {
      completion = await adapter.completeChat(generation.request, target, generation.signal);
    } catch (error) {
      return failBeforeAnswer(generation, reply, error);
    }
    generation.recorder.markFirstToken();
    const body: ChatCompletion = {
      id: generation.id,
      object: 'chat.completion',
      created: generation.created,
      model: generation.request.model,
      provider: target.provider.id,
      choices: completion.choices,
      usage: completion.usage,
    };
    const finishReason = completion.choices[0]?.finish_reason ?? null;
    generation.recorder.record({ status: 200, finishReason, usage: completion.usage });
    return reply.code(200).send(body);
  }

  async function relayStream(
    generation: Generation,
    { adapter, target }: ResolvedModel,
    reply: FastifyReply,
  ): Promise<undefined | FastifyReply> {
    let parts;
    try {
      parts = await adapter.streamChat(generation.request, target, generation.signal);
    } catch (error) {
      return failBeforeAnswer(generation, reply, error);
    }

    // From here on the status is 200 and failures travel inside the stream (spec 7.3).
    reply.hijack();
    const writer = new SseWriter(reply.raw);
    writer.open();
    writer.keepAlive(context.keepAliveMs, 'SWITCHYARD PROCESSING');
    const chunks = new ChunkAssembler({
      id: generation.id,
      created: generation.created,
      model: generation.request.model,
      provider: target.provider.id,
    });
    const { recorder, signal } = generation;
    try {
      for await (const part of parts) {
        if (part.type === 'delta' && (part.delta.content || part.delta.reasoning || part.delta.tool_calls)) {
          recorder.markFirstToken();
        }
        for (const chunk of chunks.accept(part)) await writer.data(chunk);
        if (signal.aborted) break;
      }
      if (signal.aborted) throw signal.reason;
      for (const chunk of chunks.finish()) await writer.data(chunk);
      writer.end();
      recorder.record({ status: 200, finishReason: chunks.finishReason, usage: chunks.usage });
    } catch (error) {
      const reason = abortReason(signal);
      if (reason === 'caller-gone') {
        writer.dispose();
        reply.raw.destroy();
        recorder.record({ status: 200, finishReason: 'cancelled', usage: chunks.usage });
        return undefined;
      }
      const apiError = reason === 'shutdown' ? shuttingDown() : toApiError(error, context.errors);
      generation.logger.warn({ status: apiError.status, err: apiError.message }, 'stream failed mid-way');
      for (const chunk of chunks.fail(apiError)) await writer.data(chunk);
      writer.end();
      recorder.record({ status: 200, finishReason: 'error', usage: chunks.usage, error: apiError.message });
    }
    return undefined;
  }
}
