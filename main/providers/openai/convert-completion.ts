// A whole OpenAI-compatible completion (stream = false) → AdapterCompletion, and the same completion as
// StreamParts for servers that answer a streaming request with plain JSON.

import type { CompletionChoice, FinishReason, ReasoningDetail, ToolCall, Usage } from '../../../shared/api/index.js';
import type { AdapterCompletion, StreamPart } from '../adapter.js';
import { newToolCallId, splitContent, toolArgumentsText } from './convert-chunk.js';
import { convertOpenAIUsage } from './convert-usage.js';
import { mapOpenAIFinishReason } from './map-finish-reason.js';
import type { UpstreamCompletion } from './upstream-schemas.js';

const emptyUsage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/** A missing reason means a normal end; `stop` after tool calls (older Ollama) means `tool_calls`. */
function finishReasonOf(raw: string | null | undefined, hasToolCalls: boolean): FinishReason {
  const mapped = mapOpenAIFinishReason(raw) ?? 'stop';
  return mapped === 'stop' && hasToolCalls ? 'tool_calls' : mapped;
}

export function convertOpenAICompletion(
  completion: UpstreamCompletion,
  createToolCallId: () => string = newToolCallId,
): AdapterCompletion {
  const choices = completion.choices.map((choice, position): CompletionChoice => {
    const message = choice.message;
    const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call) => ({
      id: call.id || createToolCallId(),
      type: 'function',
      function: { name: call.function.name ?? '', arguments: toolArgumentsText(call.function.arguments) },
    }));
    const parts = splitContent(message.content);
    const text = parts.text;
    const refused = message.refusal != null && text === '';
    // Fields we do not translate (annotations, audio, a provider's own) travel as the upstream sent them.
    const {
      content: _content,
      refusal: _refusal,
      reasoning: _reasoning,
      reasoning_content: _reasoningContent,
      reasoning_details: _details,
      tool_calls: _toolCalls,
      role: _role,
      ...otherMessageFields
    } = message;
    const {
      index: _index,
      message: _message,
      finish_reason: _finish,
      native_finish_reason: _native,
      ...otherChoiceFields
    } = choice;
    const converted: CompletionChoice = {
      ...otherChoiceFields,
      index: choice.index ?? position,
      message: {
        ...otherMessageFields,
        role: 'assistant',
        content: (text === '' && toolCalls.length > 0) || refused ? null : text,
        refusal: message.refusal ?? null,
      },
      finish_reason: finishReasonOf(choice.finish_reason, toolCalls.length > 0),
      native_finish_reason: choice.native_finish_reason ?? choice.finish_reason ?? null,
      logprobs: choice.logprobs ?? null,
    };
    const reasoning = (message.reasoning || message.reasoning_content || '') + parts.reasoning;
    if (reasoning) converted.message.reasoning = reasoning;
    if (message.reasoning_details && message.reasoning_details.length > 0) {
      converted.message.reasoning_details = message.reasoning_details as ReasoningDetail[];
    }
    if (toolCalls.length > 0) converted.message.tool_calls = toolCalls;
    return converted;
  });
  const converted: AdapterCompletion = {
    choices,
    usage: completion.usage ? convertOpenAIUsage(completion.usage) : { ...emptyUsage },
  };
  if (completion.system_fingerprint) converted.system_fingerprint = completion.system_fingerprint;
  return converted;
}

/** A completion replayed as stream parts: one delta per choice carrying everything, then the usage. */
export function completionToStreamParts(completion: AdapterCompletion, hasUsage: boolean): StreamPart[] {
  const parts: StreamPart[] = completion.choices.map((choice) => {
    const { content, refusal, reasoning, reasoning_details, tool_calls } = choice.message;
    const part: StreamPart = {
      type: 'delta',
      index: choice.index,
      delta: {},
      finish_reason: choice.finish_reason,
      native_finish_reason: choice.native_finish_reason ?? null,
    };
    if (content) part.delta.content = content;
    if (refusal) part.delta.refusal = refusal;
    if (reasoning) part.delta.reasoning = reasoning;
    if (reasoning_details) part.delta.reasoning_details = reasoning_details;
    if (tool_calls) part.delta.tool_calls = tool_calls.map((call, index) => ({ index, ...call }));
    return part;
  });
  if (hasUsage) parts.push({ type: 'usage', usage: completion.usage });
  return parts;
}
