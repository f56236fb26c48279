// A generation answered as one JSON object (`stream: false`), and the outcome of any generation that failed before
// its answer began. Returns what to send; the route puts it on the wire.

import type { ApiError, ChatCompletion } from '../../../shared/api/index.js';
import { toApiError } from '../http/errors.js';
import { abortReason, attemptGeneration, shuttingDown, type Generation, type GenerationContext } from './generation.js';

/** Status recorded when a non-streamed request's caller went away before the answer (nginx's convention). */
export const callerGoneStatus = 499;

export type Outcome<Body = ChatCompletion> =
  | { kind: 'answer'; body: Body }
  | { kind: 'error'; error: ApiError }
  /** Nobody is left to answer. */
  | { kind: 'caller-gone' };

/** A failure before anything was sent: the error to answer with (or none, caller gone); the usage row is written. */
export function failedBeforeAnswer(generation: Generation, context: GenerationContext, error: unknown): Outcome<never> {
  const reason = abortReason(generation.signal);
  if (reason === 'caller-gone') {
    generation.recorder.record({ status: callerGoneStatus, finishReason: 'cancelled' });
    return { kind: 'caller-gone' };
  }
  const apiError = reason === 'shutdown' ? shuttingDown() : toApiError(error, context.errors);
  if (apiError.status >= 500) generation.logger.warn({ status: apiError.status, err: apiError.message }, 'chat failed');
  generation.recorder.record({ status: apiError.status, finishReason: null, error: apiError.message });
  return { kind: 'error', error: apiError };
}

export async function answerWhole(generation: Generation, context: GenerationContext): Promise<Outcome> {
  let answered;
  try {
    answered = await attemptGeneration(generation, context, ({ adapter, target }, request, signal) =>
      adapter.completeChat(request, target, signal),
    );
  } catch (error) {
    return failedBeforeAnswer(generation, context, error);
  }
  const { value: completion, model, resolved } = answered;
  generation.recorder.markFirstToken();
  const body: ChatCompletion = {
    id: generation.id,
    object: 'chat.completion',
    created: generation.created,
    model,
    provider: resolved.target.provider.id,
    // OpenAI's schema requires both on every choice; clients such as the openai SDK's parse() read them.
    choices: completion.choices.map((choice) => ({
      ...choice,
      message: { ...choice.message, refusal: choice.message.refusal ?? null },
      logprobs: choice.logprobs ?? null,
    })),
    usage: generation.recorder.addCost(completion.usage),
  };
  // The upstream's backend configuration, when it named one: OpenAI's schema has a string or nothing.
  if (completion.system_fingerprint) body.system_fingerprint = completion.system_fingerprint;
  const finishReason = completion.choices[0]?.finish_reason ?? null;
  generation.recorder.record({ status: 200, finishReason, usage: completion.usage });
  return { kind: 'answer', body };
}
