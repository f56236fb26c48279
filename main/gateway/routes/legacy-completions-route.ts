// POST {base}/completions: OpenAI's legacy text completions, which editors use for fill-in-the-middle (`prompt`
// and `suffix`). Passed through to OpenAI-compatible providers with their model name; the answer comes back with
// our model id and the cost in its usage, streamed or whole (a request without `stream` gets one object, as with
// OpenAI; the interface specification defines no such endpoint). One usage row per request.

import type { FastifyInstance } from 'fastify';
import { ApiError, legacyCompletionRequestSchema, type Usage } from '../../../shared/api/index.js';
import type { ApiBase } from '../http/api-bases.js';
import type { ChatRouteContext } from './chat-completions-route.js';
import { toApiError } from '../http/errors.js';
import { attemptRouted, sendRoutedFailure, startRoutedCall, type RoutedCall } from '../routed-call.js';
import { sseWriter } from '../http/sse-output.js';
import { estimateCompletionUsage, GeneratedText } from '../pipeline/usage-estimate.js';
import { parseRequestBody } from '../http/validate-chat-request.js';

type Answer = Record<string, unknown> & {
  usage?: Usage | null;
  choices?: { finish_reason?: string | null; text?: unknown }[];
};

function finishReasonOf(answer: Answer): string | null {
  return answer.choices?.find((choice) => choice.finish_reason)?.finish_reason ?? null;
}

/** The answer (or chunk) with our model id and, when it reports usage, the cost in it. */
function relabel(answer: Answer, model: string, call: RoutedCall): Answer {
  const relabelled: Answer = { ...answer, model };
  if (answer.usage) relabelled.usage = call.recorder.addCost({ ...answer.usage });
  return relabelled;
}

export function registerLegacyCompletionsRoute(
  server: FastifyInstance,
  base: ApiBase,
  context: ChatRouteContext,
): void {
  server.post(`${base.prefix}/completions`, async (request, reply) => {
    const completionRequest = parseRequestBody(legacyCompletionRequestSchema, request.body, {}, ['model', 'prompt']);
    const call = startRoutedCall(request, context, completionRequest.model, completionRequest.stream);
    let answered;
    try {
      answered = await attemptRouted(call, context, (model, { adapter, target }, signal) => {
        if (!adapter.legacyCompletion) {
          throw new ApiError(
            400,
            `Model "${model}" cannot do legacy completions: /completions needs an OpenAI-compatible provider (this one is of kind ${adapter.kind}); use /chat/completions.`,
          );
        }
        return adapter.legacyCompletion(completionRequest, target, signal);
      });
    } catch (error) {
      return sendRoutedFailure(reply, call, context, error);
    }
    const { model, value } = answered;
    call.recorder.markFirstToken();
    if ('whole' in value) {
      const answer = relabel(value.whole, model, call);
      call.recorder.record({ status: 200, finishReason: finishReasonOf(answer), usage: answer.usage ?? null });
      return reply.code(200).send(answer);
    }
    reply.hijack();
    const writer = sseWriter(reply, context);
    writer.open();
    let usage: Usage | null = null;
    let finishReason: string | null = null;
    const generated = new GeneratedText();
    try {
      for await (const data of value.events) {
        let chunk: Answer;
        try {
          chunk = JSON.parse(data) as Answer;
        } catch {
          throw new ApiError(502, `Provider "${call.recorder.provider ?? ''}" sent a stream event that is not JSON.`);
        }
        if (chunk.usage) usage = chunk.usage;
        finishReason = finishReasonOf(chunk) ?? finishReason;
        for (const choice of chunk.choices ?? []) if (typeof choice.text === 'string') generated.push(choice.text);
        await writer.data(relabel(chunk, model, call));
        if (call.signal.aborted) throw call.signal.reason;
      }
      writer.end();
      call.recorder.record({ status: 200, finishReason, usage });
    } catch (error) {
      if (call.signal.aborted) {
        writer.dispose();
        reply.raw.destroy();
        // As for a chat stream: what the upstream billed is estimated when it did not say, never 0 tokens.
        const counted = usage ?? (await estimateCompletionUsage(completionRequest, generated));
        call.recorder.record({ status: 200, finishReason: 'cancelled', usage: counted, estimated: usage === null });
        return undefined;
      }
      const apiError = toApiError(error, context.errors);
      await writer.data({ ...apiError.toBody(), choices: [{ index: 0, text: '', finish_reason: 'error' }] });
      writer.end();
      call.recorder.record({ status: 200, finishReason: 'error', usage, error: apiError.message });
    }
    return undefined;
  });
}
