// POST {base}/completions: OpenAI's legacy text completions, which editors use for fill-in-the-middle (`prompt`
// and `suffix`). Passed through to OpenAI-compatible providers with their model name; the answer comes back with
// our model id and the cost in its usage, streamed or whole (a request without `stream` gets one object, as with
// OpenAI; the interface specification defines no such endpoint). The upstream's events are the caller's, so the
// pipeline relays them as it relays a native protocol (native-relay.ts), read along by the protocol below. One
// usage row per request.

import type { FastifyInstance } from 'fastify';
import {
  ApiError,
  legacyCompletionRequestSchema,
  type LegacyCompletionRequest,
  type Usage,
} from '../../../shared/api/index.js';
import type { ApiBase } from '../http/api-bases.js';
import { callerOf } from '../http/caller.js';
import { processingKeepAlive } from '../http/exchange.js';
import { sendOutcome } from '../http/reply.js';
import { rawSseOutput } from '../http/sse-output.js';
import { parseRequestBody } from '../http/validate-chat-request.js';
import { streamContextOf, type RequestContext } from '../pipeline/context.js';
import type { AttemptCall } from '../pipeline/generation.js';
import { answerRelayedWhole, relayEvents, type NativeProtocol, type RelayedAnswer } from '../pipeline/native-relay.js';
import { admitGeneration, startGeneration } from '../pipeline/start-generation.js';
import { estimateCompletionUsage, type GeneratedText } from '../pipeline/usage-estimate.js';
import type { UsageRecorder } from '../pipeline/usage-recorder.js';

type Answer = Record<string, unknown> & {
  usage?: Usage | null;
  choices?: { finish_reason?: string | null; text?: unknown }[];
};

function finishReasonOf(answer: Answer): string | null {
  return answer.choices?.find((choice) => choice.finish_reason)?.finish_reason ?? null;
}

const complete: AttemptCall<RelayedAnswer, LegacyCompletionRequest> = ({ adapter, target }, request, signal) => {
  if (!adapter.legacyCompletion) {
    throw new ApiError(
      400,
      `Model "${request.model}" cannot do legacy completions: /completions needs an OpenAI-compatible provider (this one is of kind ${adapter.kind}); use /chat/completions.`,
    );
  }
  return adapter.legacyCompletion(request, target, signal);
};

/**
 * Legacy completions read along: the usage (its cost added where the caller sees it), the finish reason, the
 * text; each answer or chunk relabelled with our model id; chunks as `data:` lines, ending with `[DONE]`.
 */
function legacyCompletionProtocol(recorder: Pick<UsageRecorder, 'addCost'>): NativeProtocol {
  // The usage of the last answer or chunk that had one: the object the caller is shown priced and the row records.
  let usage: Usage | null = null;
  return {
    kind: 'openai',
    read(payload, reading) {
      const answer = payload as Answer;
      if (answer.usage) reading.usage = usage = { ...answer.usage };
      reading.finishReason = finishReasonOf(answer) ?? reading.finishReason;
      for (const choice of answer.choices ?? [])
        if (typeof choice.text === 'string') reading.generated.push(choice.text);
    },
    relabel(payload, model) {
      const relabelled: Answer = { ...payload, model };
      if ((payload as Answer).usage && usage) relabelled.usage = recorder.addCost(usage);
      return relabelled;
    },
    encode: (payload) => `data: ${JSON.stringify(payload)}\n\n`,
    errorEvent: (error) =>
      `data: ${JSON.stringify({ ...error.toBody(), choices: [{ index: 0, text: '', finish_reason: 'error' }] })}\n\n` +
      'data: [DONE]\n\n',
    end: () => 'data: [DONE]\n\n',
  };
}

export function registerLegacyCompletionsRoute(server: FastifyInstance, base: ApiBase, context: RequestContext): void {
  const streamContext = streamContextOf(context);
  server.post(`${base.prefix}/completions`, async (request, reply) => {
    const completionRequest = parseRequestBody(legacyCompletionRequestSchema, request.body, {}, ['model', 'prompt']);
    const generation = startGeneration(callerOf(request, context.inFlight), completionRequest, context);
    const refused = await admitGeneration(generation, context);
    if (refused) return sendOutcome(reply, refused);
    const protocol = legacyCompletionProtocol(generation.recorder);
    if (!generation.request.stream) {
      return sendOutcome(reply, await answerRelayedWhole(generation, streamContext, protocol, complete));
    }
    // As for a chat stream: what the upstream billed is estimated when it did not say, never 0 tokens.
    const estimate = (generated: GeneratedText) => estimateCompletionUsage(completionRequest, generated);
    const output = rawSseOutput(reply, context, processingKeepAlive);
    const outcome = await relayEvents(generation, streamContext, protocol, complete, output, estimate);
    return outcome ? sendOutcome(reply, outcome) : undefined;
  });
}
