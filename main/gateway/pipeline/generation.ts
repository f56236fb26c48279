// One generation as the gateway runs it, whatever protocol the caller speaks and whatever it asks (a chat answer,
// embeddings, a legacy completion, a native call): its id, the validated request, the usage row it will write, the
// caller's abort signal, and the attempts over the candidate models. Nothing here knows Fastify: a route starts a
// Generation (start-generation.ts) and hands it to an answer (whole-answer.ts) or a relay (stream-relay.ts,
// native-relay.ts).

import { randomFillSync } from 'node:crypto';
import type { Logger } from 'pino';
import { ApiError, type ChatRequest } from '../../../shared/api/index.js';
import type { UpstreamTarget, ResolvedModel } from '../../providers/index.js';
import type { GatewayDeps, GatewayResponseCache, GatewayTargetHealth } from '../deps.js';
import type { ErrorContext } from '../http/errors.js';
import { ShuttingDownError } from '../http/in-flight.js';
import {
  attemptInOrder,
  candidateModels,
  defaultRetryPolicy,
  requestFor,
  type Answered,
  type RetryPolicy,
} from './upstream-attempts.js';
import type { CacheDirectives, CachePlan } from './cache-plan.js';
import type { UsageRecorder } from './usage-recorder.js';
import { attemptWatchesOf, upstreamHeadersOf, watchedAttempt, type GenerationWatch } from './watch.js';

/** What the pipeline routes: a chat request, or any request that names a model the same way. */
export interface RoutedRequest {
  /** `<provider>/<model>`. */
  model: string;
  /** Fallbacks, in order (OpenRouter's convention). */
  models?: string[];
  stream?: boolean;
}

export interface Generation<Request extends RoutedRequest = ChatRequest> {
  id: string;
  /** Unix seconds. */
  created: number;
  request: Request;
  /** The gateway key that asked. */
  keyId: string;
  recorder: UsageRecorder;
  /** Aborts when the caller leaves or the gateway shuts down (in-flight.ts). */
  signal: AbortSignal;
  logger: Logger;
  /** The caller's own gateway key: never echoed back, whatever an upstream quotes of the request. */
  callerSecrets: readonly string[];
  /** What watches it (metrics, traces, target health): told of each attempt; the recorder tells them of the end. */
  watches: readonly GenerationWatch[];
  /**
   * The request as one attempt's provider is sent it, when the protocol asks what that provider can do (the
   * Responses API's hosted tools: a web search kept where the provider runs one). The request as it is otherwise.
   */
  prepareAttempt?: (request: Request, target: UpstreamTarget) => Request;
  /** The request as the caller sent it (the model or alias as named): what the response cache keys on. */
  asSent?: Request;
  /** What the caller's headers ask of the response cache. */
  cacheDirectives?: CacheDirectives;
  /** What the response cache does for it; unset when the cache is off or the generation is not a chat. */
  cache?: CachePlan;
  /** The candidates when the request names a model group (planned at admission, target-plan.ts). */
  plan?: PlannedCandidates;
}

export interface PlannedCandidates {
  /** `<provider>/<model>` each, in the order to try them. */
  candidates: string[];
  /** Told which candidate answered (prefix stickiness). */
  answeredBy?(model: string): void;
}

/** What a generation needs from the gateway around it. */
export interface GenerationContext {
  providers: Pick<GatewayDeps['providers'], 'resolve'>;
  errors: ErrorContext;
  /** Retries and backoff of upstream attempts (upstream-attempts.ts). */
  retry?: RetryPolicy;
  /** Cooldowns: a target cooling down is skipped, as one that failed, without waiting on it. */
  targetHealth?: GatewayTargetHealth;
  /** Where answers are cached (response-cache.ts); generations with a cache plan read and write it. */
  responseCache?: GatewayResponseCache;
}

// Random bytes for ids, drawn a few kilobytes at a time: a system call per request showed in profiles. The ids
// name rows and responses; they are not secrets.
const idBytes = 12;
const idPool = Buffer.alloc(idBytes * 512);
let idPoolOffset = idPool.length;

export function newGenerationId(): string {
  if (idPoolOffset === idPool.length) {
    randomFillSync(idPool);
    idPoolOffset = 0;
  }
  const random = idPool.toString('base64url', idPoolOffset, idPoolOffset + idBytes);
  idPoolOffset += idBytes;
  return `gen-${Math.floor(Date.now() / 1000)}-${random}`;
}

export function abortReason(signal: AbortSignal): 'caller-gone' | 'shutdown' | null {
  if (!signal.aborted) return null;
  return signal.reason instanceof ShuttingDownError ? 'shutdown' : 'caller-gone';
}

export function shuttingDown(): ApiError {
  return new ApiError(503, new ShuttingDownError().message);
}

/** One attempt: the resolved model (the caller's key kept out of what it echoes) and the request as it gets it. */
export type AttemptCall<T, Request extends RoutedRequest = ChatRequest> = (
  resolved: ResolvedModel,
  request: Request,
  signal: AbortSignal,
) => Promise<T>;

/**
 * `model`, then each of `models` (model groups expanded: the generation's plan), each retried as the policy allows, until one upstream accepts the request.
 * Notes in the usage row which provider (and model, when a fallback answered) that was.
 */
export async function attemptGeneration<T, Request extends RoutedRequest = ChatRequest>(
  generation: Generation<Request>,
  context: GenerationContext,
  call: AttemptCall<T, Request>,
): Promise<Answered<T>> {
  const { request, recorder } = generation;
  const answered = await attemptInOrder(
    {
      models: candidateModels(
        generation.plan ? { model: generation.plan.candidates[0]!, models: generation.plan.candidates } : request,
      ),
      resolve: async (model) => {
        const resolved = await context.providers.resolve(model);
        recorder.provider = resolved.target.provider.id;
        return resolved;
      },
      signal: generation.signal,
      policy: context.retry ?? defaultRetryPolicy,
      logger: generation.logger,
      targetHealth: context.targetHealth,
    },
    (model, resolved, signal) => {
      const attempts = attemptWatchesOf(generation.watches, model, resolved.target.provider.id);
      const extraHeaders = upstreamHeadersOf(attempts);
      const target = extraHeaders
        ? { ...resolved.target, callerSecrets: generation.callerSecrets, extraHeaders }
        : { ...resolved.target, callerSecrets: generation.callerSecrets };
      const forModel = requestFor(request, model);
      const attempt = call({ ...resolved, target }, generation.prepareAttempt?.(forModel, target) ?? forModel, signal);
      return watchedAttempt(attempts, attempt);
    },
  );
  if (answered.model !== request.model) recorder.model = answered.model;
  generation.plan?.answeredBy?.(answered.model);
  return answered;
}
