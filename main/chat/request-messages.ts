// A stored conversation → the `messages` of a chat request. The history must stay valid for every provider
// however a turn ended: replies that were stopped or failed before saying anything are left out, and every tool
// call gets exactly one tool message (a placeholder when none was stored, say after a crash).

import type { ChatMessage as WireMessage, ToolCall } from '../../shared/api/index.js';
import { resourceOfPart } from '../../shared/bridge/chat-message.js';
import type { ChatMessage, Conversation } from '../../shared/bridge/types.js';

export const missingToolResult = 'The tool call did not complete.';

export function toRequestMessages(conversation: Conversation, history: readonly ChatMessage[]): WireMessage[] {
  const messages: WireMessage[] = [];
  if (conversation.systemPrompt.trim() !== '') messages.push({ role: 'system', content: conversation.systemPrompt });
  const results = new Map(
    history.filter((message) => message.role === 'tool').map((message) => [message.toolCallId, message]),
  );
  for (const message of history) {
    if (message.role === 'user') {
      messages.push({ role: 'user', content: userContent(message.content) });
    } else if (message.role === 'assistant') {
      const toolCalls: ToolCall[] = (message.toolCalls ?? []).map(({ id, type, function: call }) => ({
        id,
        type,
        function: call,
      }));
      const text = typeof message.content === 'string' ? message.content : '';
      if (text === '' && toolCalls.length === 0) continue;
      const wire: WireMessage = { role: 'assistant', content: text === '' ? null : text };
      if (toolCalls.length > 0) wire.tool_calls = toolCalls;
      if (message.reasoningDetails) wire.reasoning_details = message.reasoningDetails;
      messages.push(wire);
      for (const call of toolCalls) {
        const result = results.get(call.id);
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

/** What the user sent, without the fields only the app reads (an attached resource's origin). */
function userContent(content: ChatMessage['content']): WireMessage['content'] {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) =>
    resourceOfPart(part) ? { type: 'text' as const, text: part.type === 'text' ? part.text : '' } : part,
  );
}

/** A tool message's text: its images and audio are kept for the user and already described in the text. */
function toolResultText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  const text = (content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return text === '' ? missingToolResult : text;
}
