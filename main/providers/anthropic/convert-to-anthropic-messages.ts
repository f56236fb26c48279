// Our messages → Anthropic's `system` + `messages`. Anthropic has no system role (system and developer messages
// become top-level text blocks, in order), wants tool results as `tool_result` blocks in a user message, thinking
// blocks first in an assistant message, and strictly alternating roles: consecutive messages that map to the same
// role are merged into one.

import {
  ApiError,
  type ChatMessage,
  type ContentPart,
  type FilePart,
  type ReasoningDetail,
} from '../../../shared/api/index.js';
import { isHttpUrl, parseDataUrl, parseToolArguments, textsOf } from '../common/index.js';
import {
  anthropicReasoningFormat,
  type AnthropicContentBlock,
  type AnthropicDocumentBlock,
  type AnthropicImageBlock,
  type AnthropicMessage,
  type AnthropicTextBlock,
  type AnthropicThinkingBlock,
  type AnthropicRedactedThinkingBlock,
} from './anthropic-api.js';

export interface AnthropicPrompt {
  system?: AnthropicTextBlock[];
  messages: AnthropicMessage[];
}

export interface AnthropicPromptOptions {
  /** From the model's capabilities: an image for a model without vision is the caller's mistake (400). */
  acceptsImages: boolean;
  /** `<provider>/<model>`, for error messages. */
  modelLabel: string;
}

/** The image types the Messages API takes. */
const imageMediaTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** Extra fields callers put on parts (OpenRouter's `cache_control`) travel on as they are. */
function cacheControlOf(part: object): unknown {
  return (part as { cache_control?: unknown }).cache_control;
}

function textBlock(text: string, cacheControl?: unknown): AnthropicTextBlock {
  const block: AnthropicTextBlock = { type: 'text', text };
  if (cacheControl !== undefined) block.cache_control = cacheControl;
  return block;
}

/** Anthropic rejects empty text blocks, so empty strings and parts are left out. A refusal is what was said. */
function textBlocksOf(content: ChatMessage['content']): AnthropicTextBlock[] {
  if (content == null) return [];
  if (typeof content === 'string') return content === '' ? [] : [textBlock(content)];
  return content.flatMap((part) => {
    const text = part.type === 'text' ? part.text : part.type === 'refusal' ? part.refusal : '';
    return text !== '' ? [textBlock(text, cacheControlOf(part))] : [];
  });
}

/** A PDF or plain-text file → a document block; other files, and files by id, have no Anthropic form. */
function documentBlock(part: FilePart, where: string, modelLabel: string): AnthropicDocumentBlock {
  const { file_data: fileData, filename } = part.file;
  const dataUrl = fileData === undefined ? null : parseDataUrl(fileData);
  if (!dataUrl) {
    throw new ApiError(400, `${where} is a file by id; model "${modelLabel}" takes files only as data (file_data).`);
  }
  let block: AnthropicDocumentBlock;
  if (dataUrl.mediaType === 'application/pdf') {
    block = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: dataUrl.data } };
  } else if (dataUrl.mediaType === 'text/plain') {
    const text = Buffer.from(dataUrl.data, 'base64').toString('utf8');
    block = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } };
  } else {
    throw new ApiError(
      400,
      `${where} is a file of type ${dataUrl.mediaType}; model "${modelLabel}" takes PDF and plain-text files.`,
    );
  }
  if (filename) block.title = filename;
  const cacheControl = cacheControlOf(part);
  if (cacheControl !== undefined) block.cache_control = cacheControl;
  return block;
}

function imageBlock(part: Extract<ContentPart, { type: 'image_url' }>, where: string): AnthropicImageBlock {
  const url = part.image_url.url;
  const dataUrl = parseDataUrl(url);
  let block: AnthropicImageBlock;
  if (dataUrl) {
    if (!imageMediaTypes.has(dataUrl.mediaType)) {
      throw new ApiError(
        400,
        `${where} is an image of type ${dataUrl.mediaType}; Anthropic models take image/jpeg, image/png, image/gif or image/webp.`,
      );
    }
    block = { type: 'image', source: { type: 'base64', media_type: dataUrl.mediaType, data: dataUrl.data } };
  } else if (isHttpUrl(url)) {
    block = { type: 'image', source: { type: 'url', url } };
  } else {
    throw new ApiError(400, `${where}.image_url.url must be a base64 data URL or an http(s) URL.`);
  }
  const cacheControl = cacheControlOf(part);
  if (cacheControl !== undefined) block.cache_control = cacheControl;
  return block;
}

function userBlocks(message: ChatMessage, position: number, options: AnthropicPromptOptions): AnthropicContentBlock[] {
  if (typeof message.content === 'string' || message.content == null) return textBlocksOf(message.content);
  return message.content.flatMap((part, partIndex): AnthropicContentBlock[] => {
    if (part.type === 'text') return part.text === '' ? [] : [textBlock(part.text, cacheControlOf(part))];
    const where = `messages[${position}].content[${partIndex}]`;
    switch (part.type) {
      case 'image_url':
        if (!options.acceptsImages) {
          throw new ApiError(400, `Model "${options.modelLabel}" does not accept images (${where} is an image).`);
        }
        return [imageBlock(part, where)];
      case 'file':
        if (!options.acceptsImages) {
          throw new ApiError(400, `Model "${options.modelLabel}" does not accept files (${where} is a file).`);
        }
        return [documentBlock(part, where, options.modelLabel)];
      case 'input_audio':
        throw new ApiError(400, `Model "${options.modelLabel}" does not accept audio (${where} is audio).`);
      default:
        return textBlocksOf([part]);
    }
  });
}

/**
 * Thinking blocks restored from `reasoning_details` that came from Anthropic. Streamed items of one block share
 * an `index` (text pieces, then a last item with the signature), so consecutive `reasoning.text` items with the
 * same index are one block. A block without its signature cannot be sent back (the API would reject it) and is
 * dropped, as is reasoning from other providers.
 */
export function thinkingBlocksOf(
  details: readonly ReasoningDetail[] | undefined,
): (AnthropicThinkingBlock | AnthropicRedactedThinkingBlock)[] {
  const blocks: (AnthropicThinkingBlock | AnthropicRedactedThinkingBlock)[] = [];
  let current: { index: unknown; text: string; signature: string | null } | null = null;
  const flush = () => {
    if (current?.signature) blocks.push({ type: 'thinking', thinking: current.text, signature: current.signature });
    current = null;
  };
  for (const detail of details ?? []) {
    if (detail.format !== anthropicReasoningFormat) continue;
    if (detail.type === 'reasoning.text') {
      if (current === null || current.index !== detail.index || current.signature) {
        flush();
        current = { index: detail.index, text: '', signature: null };
      }
      current.text += typeof detail.text === 'string' ? detail.text : '';
      if (typeof detail.signature === 'string' && detail.signature !== '') current.signature = detail.signature;
    } else if (detail.type === 'reasoning.encrypted' && typeof detail.data === 'string' && detail.data !== '') {
      flush();
      blocks.push({ type: 'redacted_thinking', data: detail.data });
    }
  }
  flush();
  return blocks;
}

function assistantBlocks(message: ChatMessage, position: number): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [
    ...thinkingBlocksOf(message.reasoning_details),
    ...textBlocksOf(message.content),
  ];
  (message.tool_calls ?? []).forEach((call, callIndex) => {
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseToolArguments(
        call.function.arguments,
        `messages[${position}].tool_calls[${callIndex}].function.arguments`,
      ),
    });
  });
  return blocks;
}

function toolResultBlock(message: ChatMessage): AnthropicContentBlock {
  const content = textsOf(message.content).join('');
  const block: AnthropicContentBlock = { type: 'tool_result', tool_use_id: message.tool_call_id ?? '' };
  if (content !== '') block.content = content;
  return block;
}

/** Blocks that must lead their message: tool results in a user message, thinking in an assistant message. */
function leadsMessage(block: AnthropicContentBlock): boolean {
  return block.type === 'tool_result' || block.type === 'thinking' || block.type === 'redacted_thinking';
}

export function convertToAnthropicMessages(
  messages: readonly ChatMessage[],
  options: AnthropicPromptOptions,
): AnthropicPrompt {
  const system: AnthropicTextBlock[] = [];
  const converted: AnthropicMessage[] = [];
  const append = (role: AnthropicMessage['role'], blocks: AnthropicContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = converted.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else converted.push({ role, content: blocks });
  };
  messages.forEach((message, position) => {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...textBlocksOf(message.content));
        break;
      case 'user':
        append('user', userBlocks(message, position, options));
        break;
      case 'tool':
        append('user', [toolResultBlock(message)]);
        break;
      case 'assistant':
        append('assistant', assistantBlocks(message, position));
        break;
    }
  });
  for (const message of converted) {
    // A stable partition: leading blocks first, everything else in its order.
    message.content = [
      ...message.content.filter(leadsMessage),
      ...message.content.filter((block) => !leadsMessage(block)),
    ];
  }
  return system.length > 0 ? { system, messages: converted } : { messages: converted };
}
