// Prompts and answers in the shape the GenAI semantic conventions give `gen_ai.input.messages` and
// `gen_ai.output.messages` (a role and its parts), recorded only when content capture is turned on. Lenient: a
// request or answer of an unexpected shape yields what could be read of it, never an error.

interface Part {
  type: string;
  [field: string]: unknown;
}

interface Message {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).map((item): Part => {
    if (item.type === 'text' && typeof item.text === 'string') return { type: 'text', content: item.text };
    // Images, audio and files are named, not copied: a data URL can be megabytes.
    return { type: typeof item.type === 'string' ? item.type : 'unknown' };
  });
}

function toolCallParts(toolCalls: unknown): Part[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls.filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : {};
    return { type: 'tool_call', id: call.id, name: fn.name, arguments: fn.arguments };
  });
}

function toMessage(message: Record<string, unknown>): Message {
  const role = typeof message.role === 'string' ? message.role : 'user';
  if (role === 'tool') {
    return { role, parts: [{ type: 'tool_call_response', id: message.tool_call_id, response: message.content }] };
  }
  return { role, parts: [...contentParts(message.content), ...toolCallParts(message.tool_calls)] };
}

/** A chat request's messages; null when the request has none (embeddings, a native protocol's body). */
export function inputMessagesOf(request: unknown): Message[] | null {
  if (!isRecord(request) || !Array.isArray(request.messages)) return null;
  return request.messages.filter(isRecord).map(toMessage);
}

/** A whole chat answer's choices; null for anything else (a stream, embeddings). */
export function outputMessagesOf(answer: unknown): Message[] | null {
  if (!isRecord(answer) || !Array.isArray(answer.choices)) return null;
  return answer.choices.filter(isRecord).map((choice) => {
    const message = toMessage(isRecord(choice.message) ? choice.message : { role: 'assistant' });
    if (typeof choice.finish_reason === 'string') message.finish_reason = choice.finish_reason;
    return message;
  });
}
