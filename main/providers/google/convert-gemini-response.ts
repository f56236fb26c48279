// A whole Gemini answer (:generateContent, stream = false) → AdapterCompletion. It goes through the stream decoder,
// so both paths translate parts, signatures, finish reasons and usage the same way; the parts are then folded
// into one message per candidate.

import type { ChoiceLogprobs, CompletionChoice, Usage } from '../../../shared/api/index.js';
import type { AdapterCompletion, StreamPart } from '../adapter.js';
import { GeminiStreamDecoder, type GeminiDecoderContext } from './decode-gemini-stream.js';

const emptyUsage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/** Folds StreamParts into choices. Gemini's calls arrive whole, so each tool-call delta is a complete call. */
export function collectCompletion(parts: readonly StreamPart[]): AdapterCompletion {
  const choices = new Map<number, CompletionChoice>();
  let usage: Usage = { ...emptyUsage };
  for (const part of parts) {
    if (part.type === 'usage') {
      usage = part.usage;
      continue;
    }
    let choice = choices.get(part.index);
    if (!choice) {
      choice = { index: part.index, message: { role: 'assistant', content: null }, finish_reason: null };
      choices.set(part.index, choice);
    }
    if (part.logprobs) {
      const logprobs = (choice.logprobs ??= { content: [], refusal: null }) as ChoiceLogprobs;
      logprobs.content = [...(logprobs.content ?? []), ...(part.logprobs.content ?? [])];
    }
    const { message } = choice;
    const { content, reasoning, reasoning_details: details, tool_calls: calls, annotations } = part.delta;
    if (content) message.content = (message.content ?? '') + content;
    if (annotations?.length) message.annotations = [...(message.annotations ?? []), ...annotations];
    const searches = part.delta.web_search_calls;
    if (searches?.length) message.web_search_calls = [...(message.web_search_calls ?? []), ...searches];
    if (reasoning) message.reasoning = (message.reasoning ?? '') + reasoning;
    if (details?.length) message.reasoning_details = [...(message.reasoning_details ?? []), ...details];
    for (const call of calls ?? []) {
      (message.tool_calls ??= []).push({
        id: call.id ?? '',
        type: 'function',
        function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' },
      });
    }
    if (part.finish_reason) {
      choice.finish_reason = part.finish_reason;
      choice.native_finish_reason = part.native_finish_reason ?? null;
    }
  }
  for (const choice of choices.values()) {
    if (choice.message.content === null && !choice.message.tool_calls) choice.message.content = '';
  }
  return { choices: [...choices.values()].sort((a, b) => a.index - b.index), usage };
}

export function convertGeminiResponse(json: unknown, context: GeminiDecoderContext): AdapterCompletion {
  const decoder = new GeminiStreamDecoder(context);
  return collectCompletion([...decoder.acceptResponse(json), ...decoder.end()]);
}
