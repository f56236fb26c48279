// POST /api/v1/chat/completions: validate, resolve the model, then relay a stream (default) or answer with one
// completion. One usage row per request whose body was valid (a body that fails validation names no usable
// model and gets no row: the 400 tells the caller everything).

import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { ApiError, type ChatCompletion, type ChatRequest } from '../../shared/api/index.js';
import type { ResolvedModel } from '../providers/registry.js';
import {
  attemptInOrder,
  candidateModels,
  defaultRetryPolicy,
  requestFor,
  startStream,
  type Answered,
  type RetryPolicy,
} from './upstream-attempts.js';
import { authenticatedKey, bearerSecret } from './auth.js';
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
  /** Retries and backoff of upstream attempts (upstream-attempts.ts). */
  retry?: RetryPolicy;
}

const processingComment = 'SWITCHYARD PROCESSING';

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
  /** The caller's own gateway key: never echoed back, whatever an upstream quotes of the request. */
  callerSecrets: readonly string[];
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
      callerSecrets: [bearerSecret(request.headers.authorization) ?? ''],
    };
    try {
      deps.accounts?.admit(key.id, chatRequest); // key rules, credits, rate limits: before any upstream call
    } catch (error) {
      return failBeforeAnswer(generation, reply, error);
    }
    if (chatRequest.stream) return relayStream(generation, reply);
    return answerWhole(generation, reply);
  });

  /**
   * `model`, then each of `models`, each retried as the policy allows, until one upstream accepts the request.
   * Notes in the usage row which provider (and model, when a fallback answered) that was.
   */
  async function attempt<T>(
    generation: Generation,
    call: (resolved: ResolvedModel, request: ChatRequest, signal: AbortSignal) => Promise<T>,
  ): Promise<Answered<T>> {
    const { request, recorder } = generation;
    const answered = await attemptInOrder(
      {
        models: candidateModels(request),
        resolve: async (model) => {
          const resolved = await deps.providers.resolve(model);
          recorder.provider = resolved.target.provider.id;
          return resolved;
        },
        signal: generation.signal,
        policy: context.retry ?? defaultRetryPolicy,
        logger: generation.logger,
      },
      (model, resolved, signal) => {
        const target = { ...resolved.target, callerSecrets: generation.callerSecrets };
        return call({ ...resolved, target }, requestFor(request, model), signal);
      },
    );
    if (answered.model !== request.model) recorder.model = answered.model;
    return answered;
  }

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

  async function answerWhole(generation: Generation, reply: FastifyReply): Promise<FastifyReply | undefined> {
    let answered;
    try {
      answered = await attempt(generation, ({ adapter, target }, request, signal) =>
        adapter.completeChat(request, target, signal),
      );
    } catch (error) {
      return failBeforeAnswer(generation, reply, error);
    }
    const { value: completion, model, resolved } = answered;
    generation.recorder.markFirstToken();
    const body: ChatCompletion = {
      id: generation.id,
      object: 'chat.completion',
      created: generation.created,
      model,
      provider: resolved.target.provider.id,
      choices: completion.choices,
      usage: generation.recorder.addCost(completion.usage),
    };
    const finishReason = completion.choices[0]?.finish_reason ?? null;
    generation.recorder.record({ status: 200, finishReason, usage: completion.usage });
    return reply.code(200).send(body);
  }

  /** From here on the status is 200 and failures travel inside the stream (spec 7.3). */
  function openStream(reply: FastifyReply, writer: SseWriter): void {
    reply.hijack();
    writer.open();
    writer.keepAlive(context.keepAliveMs, processingComment);
  }

  async function relayStream(generation: Generation, reply: FastifyReply): Promise<undefined | FastifyReply> {
    const { recorder, signal } = generation;
    const writer = new SseWriter(reply.raw);
    // Retries, their backoff and a slow first token can keep the caller waiting for minutes, and clients and
    // proxies drop a silent connection: after keepAliveMs without an answer the stream opens with comments (as
    // OpenRouter's do). A failure after that travels inside the stream like one after the first token.
    const openEarly =
      context.keepAliveMs > 0
        ? setTimeout(() => {
            if (signal.aborted || writer.opened || reply.raw.destroyed) return;
            openStream(reply, writer);
            void writer.comment(processingComment);
          }, context.keepAliveMs)
        : undefined;
    let answered;
    try {
      answered = await attempt(generation, ({ adapter, target }, request, attemptSignal) =>
        startStream(adapter, request, target, attemptSignal),
      );
    } catch (error) {
      if (!writer.opened) return failBeforeAnswer(generation, reply, error);
      const [providerOfModel = ''] = generation.request.model.split('/');
      const chunks = new ChunkAssembler({
        id: generation.id,
        created: generation.created,
        model: generation.request.model,
        provider: recorder.provider ?? providerOfModel,
      });
      return failStream(generation, reply, writer, chunks, error);
    } finally {
      clearTimeout(openEarly);
    }
    if (!writer.opened) openStream(reply, writer);
    const parts = answered.value;
    const chunks = new ChunkAssembler({
      id: generation.id,
      created: generation.created,
      model: answered.model,
      provider: answered.resolved.target.provider.id,
    });
    try {
      for await (const part of parts) {
        if (part.type === 'delta' && (part.delta.content || part.delta.reasoning || part.delta.tool_calls)) {
          recorder.markFirstToken();
        }
        for (const chunk of chunks.accept(part)) await writer.data(chunk);
        if (signal.aborted) break;
      }
      if (signal.aborted) throw signal.reason;
      recorder.addCost(chunks.usage);
      for (const chunk of chunks.finish()) await writer.data(chunk);
      writer.end();
      recorder.record({ status: 200, finishReason: chunks.finishReason, usage: chunks.usage });
    } catch (error) {
      return failStream(generation, reply, writer, chunks, error);
    }
    return undefined;
  }

  /** A failure once the stream is open: OpenRouter's error chunk and [DONE] (or nothing, caller gone). */
  async function failStream(
    generation: Generation,
    reply: FastifyReply,
    writer: SseWriter,
    chunks: ChunkAssembler,
    error: unknown,
  ): Promise<undefined> {
    const { recorder, signal } = generation;
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
    return undefined;
  }
}
