// The response cache's answers (decision 031): a chat generation asked again within the TTL, by the same key (or
// any key with the `all` scope), is answered from the database instead of an upstream, whole or as a replayed
// stream, whatever protocol carried it (chat completions, Responses, Messages, Gemini all run a chat generation).
// Here: an answer stored once it ended well, and a stored one made into a completion or a stream's parts.

import type { ChatCompletion, Usage } from '../../../shared/api/index.js';
import type { AdapterCompletion, StreamPart } from '../../providers/index.js';
import type { CachedAnswer, GatewayResponseCache } from './cache-plan.js';
import type { Generation } from './generation.js';

/** Stores a whole answer, when the plan says so and it ended well; never delays the caller. */
export function storeAnswer(
  generation: Generation,
  cache: GatewayResponseCache | undefined,
  answer: CachedAnswer,
): void {
  const plan = generation.cache;
  const settings = cache?.settings();
  if (!cache || !settings || !plan?.write || settings.ttlSeconds <= 0) return;
  const finishes = answer.completion.choices.map((choice) => choice.finish_reason);
  if (
    finishes.length === 0 ||
    finishes.some((reason) => reason === null || reason === 'error' || reason === 'content_filter')
  ) {
    return;
  }
  const now = Date.now();
  const row = {
    key: plan.key,
    body: JSON.stringify(answer),
    createdAt: now,
    expiresAt: now + settings.ttlSeconds * 1000,
  };
  cache.write(row, settings).catch((error: unknown) => {
    generation.logger.warn({ err: (error as Error).message }, 'storing in the response cache failed');
  });
}

/** A cached answer as a whole chat completion for this generation; the usage row is written (a hit). */
export function completionFromCache(generation: Generation, answer: CachedAnswer): ChatCompletion {
  notedAnswer(generation, answer);
  const { completion } = answer;
  const body: ChatCompletion = {
    id: generation.id,
    object: 'chat.completion',
    created: generation.created,
    model: answer.model,
    provider: answer.provider,
    choices: completion.choices,
    usage: generation.recorder.addCost(completion.usage),
  };
  if (completion.system_fingerprint) body.system_fingerprint = completion.system_fingerprint;
  generation.recorder.markFirstToken();
  generation.recorder.record({
    status: 200,
    finishReason: completion.choices[0]?.finish_reason ?? null,
    usage: completion.usage,
  });
  return body;
}

/** A cached answer as the parts a stream of it is made of: each choice whole in one delta, then the usage. */
export function partsFromCache(generation: Generation, answer: CachedAnswer): StreamPart[] {
  notedAnswer(generation, answer);
  const parts: StreamPart[] = answer.completion.choices.map((choice) => {
    const { content, reasoning, refusal, tool_calls: toolCalls } = choice.message;
    return {
      type: 'delta',
      index: choice.index,
      delta: {
        ...(content ? { content } : {}),
        ...(reasoning ? { reasoning } : {}),
        ...(refusal ? { refusal } : {}),
        ...(toolCalls?.length ? { tool_calls: toolCalls.map((call, index) => ({ index, ...call })) } : {}),
      },
      finish_reason: choice.finish_reason,
    };
  });
  parts.push({ type: 'usage', usage: answer.completion.usage });
  return parts;
}

function notedAnswer(generation: Generation, answer: CachedAnswer): void {
  generation.recorder.provider = answer.provider;
  if (answer.model !== generation.request.model) generation.recorder.model = answer.model;
}

interface ChoiceBeingStreamed {
  content: string;
  reasoning: string;
  refusal: string;
  toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  finishReason: AdapterCompletion['choices'][number]['finish_reason'];
}

/**
 * Puts a streamed answer back together for the cache: text, reasoning, refusals and tool calls. A stream with
 * anything else (citations, reasoning details, log probabilities, searches) is not cached.
 */
export class StreamCapture {
  private readonly choices = new Map<number, ChoiceBeingStreamed>();
  private usage: Usage | null = null;
  private cachable = true;

  accept(part: StreamPart): void {
    if (!this.cachable) return;
    if (part.type === 'usage') {
      this.usage = part.usage;
      return;
    }
    const { delta } = part;
    if (
      part.logprobs ||
      delta.annotations?.length ||
      delta.reasoning_details?.length ||
      delta.web_search_calls?.length
    ) {
      this.cachable = false;
      return;
    }
    let choice = this.choices.get(part.index);
    if (!choice) {
      choice = { content: '', reasoning: '', refusal: '', toolCalls: [], finishReason: null };
      this.choices.set(part.index, choice);
    }
    choice.content += delta.content ?? '';
    choice.reasoning += delta.reasoning ?? '';
    choice.refusal += delta.refusal ?? '';
    for (const call of delta.tool_calls ?? []) {
      const known = (choice.toolCalls[call.index] ??= {
        id: '',
        type: 'function',
        function: { name: '', arguments: '' },
      });
      if (call.id) known.id = call.id;
      known.function.name += call.function?.name ?? '';
      known.function.arguments += call.function?.arguments ?? '';
    }
    if (part.finish_reason) choice.finishReason = part.finish_reason;
  }

  /** The answer as a completion; undefined when it cannot be cached. */
  completion(): AdapterCompletion | undefined {
    if (!this.cachable || !this.usage || this.choices.size === 0) return undefined;
    const choices = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, choice]) => ({
        index,
        message: {
          role: 'assistant' as const,
          content: choice.content || null,
          ...(choice.reasoning ? { reasoning: choice.reasoning } : {}),
          refusal: choice.refusal || null,
          ...(choice.toolCalls.length > 0 ? { tool_calls: choice.toolCalls } : {}),
        },
        finish_reason: choice.finishReason,
        logprobs: null,
      }));
    return { choices, usage: this.usage };
  }
}
