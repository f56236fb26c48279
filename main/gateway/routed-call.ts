// What every route that sends one request to one model's provider shares, besides chat (which has ./chat): the
// usage row, the caller's abort signal and key, the attempts over the model with retries (the caller's key kept
// out of whatever the upstream echoes), and the answer to a failure. Used by /embeddings and /completions.
// The model name is made canonical (an alias replaced by its `<provider>/<model>`) once, at the start, so that the
// key's rules, the price and the usage row all see the model that is called.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedModel } from '../providers/registry.js';
import { authenticatedKey, presentedSecret, sendError } from './http/auth.js';
import type { ChatRouteContext } from './routes/chat-completions-route.js';
import { newGenerationId } from './pipeline/generation.js';
import { toApiError } from './http/errors.js';
import { attemptInOrder, candidateModels, defaultRetryPolicy, type Answered } from './pipeline/upstream-attempts.js';
import { appTitleOf, headerText, UsageRecorder } from './pipeline/usage-recorder.js';

export interface RoutedCall {
  /** `<provider>/<model>`: the requested name with an alias replaced. */
  model: string;
  keyId: string;
  recorder: UsageRecorder;
  signal: AbortSignal;
  callerSecrets: readonly string[];
}

/**
 * Starts the usage row of a request for `requestedModel` by the authenticated caller. Throws ApiError(404) for a
 * name that is neither an alias nor `<provider>/<model>` (no row: the name says nothing usable).
 */
export function startRoutedCall(
  request: FastifyRequest,
  context: ChatRouteContext,
  requestedModel: string,
  streamed: boolean,
): RoutedCall {
  const keyId = authenticatedKey(request).id;
  const model = context.deps.providers.canonicalModel(requestedModel);
  const recorder = new UsageRecorder(context.deps.usage, context.deps.logger, {
    id: newGenerationId(),
    created_at: Date.now(),
    key_id: keyId,
    app_title: appTitleOf(request),
    app_referer: headerText(request, 'http-referer'),
    model,
    streamed,
  });
  return {
    model,
    keyId,
    recorder,
    signal: context.inFlight.controllerOf(request).signal,
    callerSecrets: [presentedSecret(request) ?? ''],
  };
}

/** Admits the caller (key rules, credits, rate limits), then tries the call's model as the retry policy allows. */
export async function attemptRouted<T>(
  call: RoutedCall,
  context: ChatRouteContext,
  send: (model: string, resolved: ResolvedModel, signal: AbortSignal) => Promise<T>,
): Promise<Answered<T>> {
  await context.deps.accounts?.admit(call.keyId, { model: call.model });
  return attemptInOrder(
    {
      models: candidateModels({ model: call.model }),
      resolve: async (candidate) => {
        const resolved = await context.deps.providers.resolve(candidate);
        call.recorder.provider = resolved.target.provider.id;
        return resolved;
      },
      signal: call.signal,
      policy: context.retry ?? defaultRetryPolicy,
      logger: context.deps.logger,
    },
    (candidate, resolved, signal) =>
      send(candidate, { ...resolved, target: { ...resolved.target, callerSecrets: call.callerSecrets } }, signal),
  );
}

/** A failure before any answer: the error in the envelope, or nothing when the caller left; the row is written. */
export function sendRoutedFailure(
  reply: FastifyReply,
  call: RoutedCall,
  context: ChatRouteContext,
  error: unknown,
): FastifyReply | undefined {
  if (call.signal.aborted) {
    call.recorder.record({ status: 499, finishReason: 'cancelled' });
    reply.hijack();
    return undefined;
  }
  const apiError = toApiError(error, context.errors);
  call.recorder.record({ status: apiError.status, finishReason: null, error: apiError.message });
  return sendError(reply, apiError);
}
