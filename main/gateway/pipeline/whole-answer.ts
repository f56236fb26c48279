// A generation answered as one JSON object (`stream: false`: a chat completion, embeddings, a legacy completion, a
// native answer), and the outcome of any generation that failed before its answer began. Returns what to send; the
// route puts it on the wire.

import type { ChatCompletion, ChatRequest } from '../../../shared/api/index.js';
import type { Outcome } from '../http/exchange.js';
import type { AdapterCompletion } from '../../providers/index.js';
import { toApiError } from '../http/errors.js';
import {
  abortReason,
  attemptGeneration,
  shuttingDown,
  type AttemptCall,
  type Generation,
  type GenerationContext,
  type RoutedRequest,
} from './generation.js';
import { completionFromCache, storeAnswer } from './response-cache.js';
import type { Answered } from './upstream-attempts.js';

/** Status recorded when a non-streamed request's caller went away before the answer (nginx's convention). */
export const callerGoneStatus = 499;

/** A failure before anything was sent: the error to answer with (or none, caller gone); the usage row is written. */
export function failedBeforeAnswer<Request extends RoutedRequest>(
  generation: Generation<Request>,
  context: GenerationContext,
  error: unknown,
): Outcome<never> {
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

/**
 * The one way to a whole answer: the attempts over the candidate models, then `answer` makes the body from what
 * answered and writes the usage row; a failure of either before anything was sent is failedBeforeAnswer().
 */
export async function answerWith<T, Body, Request extends RoutedRequest = ChatRequest>(
  generation: Generation<Request>,
  context: GenerationContext,
  call: AttemptCall<T, Request>,
  answer: (answered: Answered<T>) => Body,
): Promise<Outcome<Body>> {
  let answered;
  try {
    answered = await attemptGeneration(generation, context, call);
  } catch (error) {
    return failedBeforeAnswer(generation, context, error);
  }
  generation.recorder.markFirstToken();
  try {
    return { kind: 'answer', body: answer(answered) };
  } catch (error) {
    return failedBeforeAnswer(generation, context, error);
  }
}

export async function answerWhole(generation: Generation, context: GenerationContext): Promise<Outcome> {
  const hit = generation.cache?.hit;
  if (hit) return { kind: 'answer', body: completionFromCache(generation, hit) };
  return answerWith(
    generation,
    context,
    ({ adapter, target }, request, signal) => adapter.completeChat(request, target, signal),
    (answered) => chatCompletionOf(generation, answered, context),
  );
}

function chatCompletionOf(
  generation: Generation,
  answered: Answered<AdapterCompletion>,
  context: GenerationContext,
): ChatCompletion {
  const { value: completion, model, resolved } = answered;
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
  const cached = { choices: body.choices, usage: body.usage, system_fingerprint: body.system_fingerprint };
  storeAnswer(generation, context.responseCache, { model, provider: body.provider!, completion: cached });
  return body;
}
