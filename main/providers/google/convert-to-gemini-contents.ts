// Our messages → Gemini's `systemInstruction` + `contents`. System and developer messages become the system
// instruction; assistant → role `model`; tool results → `functionResponse` parts in a user turn, which need the
// function's name (looked up from the earlier assistant tool call by `tool_call_id`) and an object as response.
// Thought signatures that came back in `reasoning_details` are put on the part they came from. Consecutive
// messages that map to the same role are merged into one turn.

import { ApiError, type ChatMessage, type ReasoningDetail } from '../../../shared/api/index.js';
import { isHttpUrl, parseDataUrl, parseToolArguments, textOf, textsOf } from '../common/index.js';
import { geminiReasoningFormat, type GeminiContent, type GeminiPart } from './gemini-api.js';

export interface GeminiPrompt {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
}

export interface GeminiPromptOptions {
  /** From the model's capabilities: an image for a model without vision is the caller's mistake (400). */
  acceptsImages: boolean;
  /** `<provider>/<model>`, for error messages. */
  modelLabel: string;
}

function textParts(content: ChatMessage['content']): GeminiPart[] {
  return textsOf(content).flatMap((text) => (text === '' ? [] : [{ text }]));
}

/** Audio formats as OpenAI names them → their media types. */
const audioMediaTypes: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mp3',
  aiff: 'audio/aiff',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
};

function userParts(message: ChatMessage, position: number, options: GeminiPromptOptions): GeminiPart[] {
  if (typeof message.content === 'string' || message.content == null) return textParts(message.content);
  return message.content.flatMap((part, partIndex): GeminiPart[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
    if (part.type === 'refusal') return part.refusal === '' ? [] : [{ text: part.refusal }];
    const where = `messages[${position}].content[${partIndex}]`;
    const what = part.type === 'image_url' ? 'an image' : part.type === 'file' ? 'a file' : 'audio';
    if (!options.acceptsImages) {
      const kind = part.type === 'image_url' ? 'images' : part.type === 'file' ? 'files' : 'audio';
      throw new ApiError(400, `Model "${options.modelLabel}" does not accept ${kind} (${where} is ${what}).`);
    }
    if (part.type === 'input_audio') {
      const mimeType = audioMediaTypes[part.input_audio.format.toLowerCase()];
      if (!mimeType) {
        const known = Object.keys(audioMediaTypes).join(', ');
        throw new ApiError(400, `${where} is audio in "${part.input_audio.format}"; Gemini models take ${known}.`);
      }
      return [{ inlineData: { mimeType, data: part.input_audio.data } }];
    }
    const url = part.type === 'image_url' ? part.image_url.url : (part.file.file_data ?? '');
    const dataUrl = parseDataUrl(url);
    if (dataUrl) return [{ inlineData: { mimeType: dataUrl.mediaType, data: dataUrl.data } }];
    if (part.type === 'file') {
      throw new ApiError(400, `${where} is a file by id; Gemini models take files only as data (file_data).`);
    }
    if (isHttpUrl(url)) {
      throw new ApiError(
        400,
        `${where} is an image by URL; Gemini models take images only as base64 data URLs ("data:image/png;base64,…").`,
      );
    }
    throw new ApiError(400, `${where}.image_url.url must be a base64 data URL.`);
  });
}

interface Signatures {
  byToolCallId: Map<string, string>;
  /** A signature that came on a text part (or an empty last part). */
  text: string | null;
}

/** Thought signatures in `reasoning_details` that came from Gemini; other providers' reasoning is ignored. */
function signaturesOf(details: readonly ReasoningDetail[] | undefined): Signatures {
  const signatures: Signatures = { byToolCallId: new Map(), text: null };
  for (const detail of details ?? []) {
    if (detail.format !== geminiReasoningFormat || detail.type !== 'reasoning.encrypted') continue;
    if (typeof detail.data !== 'string' || detail.data === '') continue;
    if (typeof detail.id === 'string' && detail.id !== '') signatures.byToolCallId.set(detail.id, detail.data);
    else signatures.text = detail.data;
  }
  return signatures;
}

function modelParts(message: ChatMessage, position: number): GeminiPart[] {
  const signatures = signaturesOf(message.reasoning_details);
  const parts = textParts(message.content);
  const lastText = parts.at(-1);
  if (lastText && signatures.text) lastText.thoughtSignature = signatures.text;
  (message.tool_calls ?? []).forEach((call, callIndex) => {
    const args = parseToolArguments(
      call.function.arguments,
      `messages[${position}].tool_calls[${callIndex}].function.arguments`,
    );
    // Call ids are not sent: Gemini matches responses by name and order, and most ids are ours, not Gemini's.
    const part: GeminiPart = { functionCall: { name: call.function.name, args } };
    const signature = signatures.byToolCallId.get(call.id);
    if (signature) part.thoughtSignature = signature;
    parts.push(part);
  });
  return parts;
}

/** A tool result as the object Gemini requires: a JSON object as it is, anything else as `{result: …}`. */
function functionResponseOf(content: ChatMessage['content']): Record<string, unknown> {
  const text = textOf(content);
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    return { result: value };
  } catch {
    return { result: text };
  }
}

export function convertToGeminiContents(messages: readonly ChatMessage[], options: GeminiPromptOptions): GeminiPrompt {
  const system: { text: string }[] = [];
  const contents: GeminiContent[] = [];
  const toolNames = new Map<string, string>();
  const append = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  messages.forEach((message, position) => {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...textsOf(message.content).flatMap((text) => (text === '' ? [] : [{ text }])));
        break;
      case 'user':
        append('user', userParts(message, position, options));
        break;
      case 'assistant':
        for (const call of message.tool_calls ?? []) toolNames.set(call.id, call.function.name);
        append('model', modelParts(message, position));
        break;
      case 'tool': {
        const id = message.tool_call_id ?? '';
        const name = toolNames.get(id);
        if (name === undefined) {
          throw new ApiError(
            400,
            `messages[${position}].tool_call_id "${id}" does not match a tool call of an earlier assistant message; Gemini needs the function's name.`,
          );
        }
        append('user', [{ functionResponse: { name, response: functionResponseOf(message.content) } }]);
        break;
      }
    }
  });
  for (const content of contents) {
    // Function responses lead their turn, in the order of the calls; other parts follow in their order.
    const responses = content.parts.filter((part) => part.functionResponse);
    if (responses.length > 0) content.parts = [...responses, ...content.parts.filter((part) => !part.functionResponse)];
  }
  const prompt: GeminiPrompt = { contents };
  if (system.length > 0) prompt.systemInstruction = { parts: system };
  return prompt;
}
