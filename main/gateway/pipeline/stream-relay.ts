// A generation relayed as a stream of chunks. Until the stream opens, a failure is an ordinary error answer (the
// returned Outcome); once it is open (the first part arrived, or keepAliveMs passed without one: open-stream.ts),
// failures travel inside the stream as OpenRouter's error chunk, and the status stays 200 (spec 7.3).

import type { ChunkDelta } from '../../../shared/api/index.js';
import { processingComment, type StreamOutput, type Outcome } from '../http/exchange.js';
import { ChunkAssembler } from './chunk-assembler.js';
import { estimateUsage, GeneratedText } from './usage-estimate.js';
import { startStream } from './upstream-attempts.js';
import { attemptGeneration, type Generation, type GenerationContext } from './generation.js';
import { failOpenStream, openWhenSilent, type StreamEnding } from './open-stream.js';
import { failedBeforeAnswer } from './whole-answer.js';
import type { CachedAnswer } from './cache-plan.js';
import { partsFromCache, storeAnswer, StreamCapture } from './response-cache.js';

export interface StreamContext extends GenerationContext {
  /** Open the stream with comments after this long without an answer; 0 never opens early. */
  keepAliveMs: number;
}

/** Relays the generation to `output`. Resolves with an Outcome when the stream never opened, else undefined. */
export async function relayStream(
  generation: Generation,
  context: StreamContext,
  output: StreamOutput,
): Promise<Outcome | undefined> {
  const { recorder, signal } = generation;
  const hit = generation.cache?.hit;
  if (hit) return replayStream(generation, hit, output);
  const openEarly = openWhenSilent(signal, context.keepAliveMs, output, () => {
    output.open();
    void output.comment(processingComment);
  });
  let answered;
  try {
    answered = await attemptGeneration(generation, context, ({ adapter, target }, request, attemptSignal) =>
      startStream(adapter, request, target, attemptSignal),
    );
  } catch (error) {
    if (!output.opened) return failedBeforeAnswer(generation, context, error);
    const [providerOfModel = ''] = generation.request.model.split('/');
    const chunks = new ChunkAssembler({
      id: generation.id,
      created: generation.created,
      model: generation.request.model,
      provider: recorder.provider ?? providerOfModel,
    });
    await failStream(generation, context, output, chunks, error);
    return undefined;
  } finally {
    clearTimeout(openEarly);
  }
  if (!output.opened) output.open();
  // What was generated, for an estimate when the caller leaves before the upstream reports usage.
  const generated = new GeneratedText();
  const chunks = new ChunkAssembler({
    id: generation.id,
    created: generation.created,
    model: answered.model,
    provider: answered.resolved.target.provider.id,
  });
  const capture = generation.cache?.write ? new StreamCapture() : null;
  try {
    for await (const part of answered.value) {
      capture?.accept(part);
      const { delta } = part.type === 'delta' ? part : { delta: null };
      if (delta && (delta.content || delta.reasoning || delta.tool_calls || delta.refusal)) {
        recorder.markFirstToken();
        generatedTexts(delta, generated);
      }
      for (const chunk of chunks.accept(part)) await output.data(chunk);
      if (signal.aborted) break;
    }
    if (signal.aborted) throw signal.reason;
    recorder.addCost(chunks.usage);
    for (const chunk of chunks.finish()) await output.data(chunk);
    output.end();
    recorder.record({ status: 200, finishReason: chunks.finishReason, usage: chunks.usage });
    const completion = capture?.completion();
    if (completion) {
      const answer = { model: answered.model, provider: answered.resolved.target.provider.id, completion };
      storeAnswer(generation, context.responseCache, answer);
    }
  } catch (error) {
    await failStream(generation, context, output, chunks, error, generated);
  }
  return undefined;
}

/** A cached answer replayed as the stream it would have been, its usage in the final chunk. */
async function replayStream(generation: Generation, answer: CachedAnswer, output: StreamOutput): Promise<undefined> {
  output.open();
  const chunks = new ChunkAssembler({
    id: generation.id,
    created: generation.created,
    model: answer.model,
    provider: answer.provider,
  });
  generation.recorder.markFirstToken();
  for (const part of partsFromCache(generation, answer)) {
    for (const chunk of chunks.accept(part)) await output.data(chunk);
  }
  generation.recorder.addCost(chunks.usage);
  for (const chunk of chunks.finish()) await output.data(chunk);
  output.end();
  generation.recorder.record({ status: 200, finishReason: chunks.finishReason, usage: chunks.usage });
  return undefined;
}

function generatedTexts(delta: ChunkDelta, into: GeneratedText): void {
  if (delta.content) into.push(delta.content);
  if (delta.refusal) into.push(delta.refusal);
  if (delta.reasoning) into.push(delta.reasoning);
  for (const call of delta.tool_calls ?? []) {
    if (call.function?.name) into.push(call.function.name);
    if (call.function?.arguments) into.push(call.function.arguments);
  }
}

/** A failure once the stream is open: OpenRouter's error chunk and [DONE] (or nothing, caller gone). */
function failStream(
  generation: Generation,
  context: GenerationContext,
  output: StreamOutput,
  chunks: ChunkAssembler,
  error: unknown,
  generated = new GeneratedText(),
): Promise<void> {
  const ending: StreamEnding = {
    usage: () => chunks.usage,
    estimate: () => estimateUsage(generation.request, generated),
    abandon: () => output.abandon(),
    async fail(apiError) {
      for (const chunk of chunks.fail(apiError)) await output.data(chunk);
      output.end();
    },
  };
  return failOpenStream(generation, context, ending, error);
}
