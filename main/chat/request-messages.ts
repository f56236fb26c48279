// A stored conversation → the `messages` of a chat request. The history must stay valid for every provider
// however a turn ended: replies that were stopped or failed before saying anything are left out, and every tool
// call gets exactly one tool message (a placeholder when none was stored, say after a crash).
// A provider's tool-call id is only unique within one reply (some reuse `call_1` every turn), so calls are given
// ids unique in the conversation when they arrive, and a result is matched to its call by place as well as id.

import type { ChatMessage as WireMessage, ToolCall } from '../../shared/api/index.js';
import { isAttachedTextPart, resultsOf } from '../../shared/bridge/chat-message.js';
import type { ChatMessage, Conversation } from '../../shared/bridge/types.js';

export const missingToolResult = 'The tool call did not complete.';

export function toRequestMessages(conversation: Conversation, history: readonly ChatMessage[]): WireMessage[] {
  const messages: WireMessage[] = [];
  if (conversation.systemPrompt.trim() !== '') messages.push({ role: 'system', content: conversation.systemPrompt });
  const sentIds = new Set<string>();
  for (const [at, message] of history.entries()) {
    if (message.role === 'user') {
      messages.push({ role: 'user', content: userContent(message.content) });
    } else if (message.role === 'assistant') {
      const results = resultsOf(message.toolCalls ?? [], history, at);
      // Conversations stored before ids were made unique may repeat one: each gets its own in the request.
      const toolCalls: ToolCall[] = (message.toolCalls ?? []).map(({ id, type, function: call }) => ({
        id: unusedId(id, sentIds),
        type,
        function: call,
      }));
      const text = typeof message.content === 'string' ? message.content : '';
      if (text === '' && toolCalls.length === 0) continue;
      const wire: WireMessage = { role: 'assistant', content: text === '' ? null : text };
      if (toolCalls.length > 0) wire.tool_calls = toolCalls;
      if (message.reasoningDetails) wire.reasoning_details = message.reasoningDetails;
      messages.push(wire);
      for (const [index, call] of toolCalls.entries()) {
        const result = results[index];
        messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: result ? toolResultText(result.content) : missingToolResult,
        });
      }
    }
    // Tool messages were placed right after the call they answer; one without a call is left out.
  }
  return messages;
}

/** `id`, or when taken `id_2`, `id_3`…; the answer is added to `taken`. */
export function unusedId(id: string, taken: Set<string>): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}_${n}`;
  taken.add(candidate);
  return candidate;
}

/** A new reply's calls with ids no earlier call of the conversation (nor a sibling) has. */
export function uniqueCallIds<Call extends { id: string }>(calls: readonly Call[], history: readonly ChatMessage[]) {
  const taken = new Set(history.flatMap((message) => (message.toolCalls ?? []).map((call) => call.id)));
  return calls.map((call) => ({ ...call, id: unusedId(call.id, taken) }));
}

/** What the user sent, without the fields only the app reads (an attached resource's origin, a file's name). */
function userContent(content: ChatMessage['content']): WireMessage['content'] {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) =>
    isAttachedTextPart(part) ? { type: 'text' as const, text: part.type === 'text' ? part.text : '' } : part,
  );
}

/** A tool message's text: its images and audio are kept for the user and already described in the text. */
function toolResultText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  const text = (content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return text === '' ? missingToolResult : text;
}
