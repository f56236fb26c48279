// An Anthropic Messages request (POST /v1/messages, /v1/messages/count_tokens) validated with its own schema, so
// that errors name its fields (`messages[1].content[0].source.data`), and translated to the one chat request the
// gateway runs on any provider kind: `system` → a system message; text, images (base64 and URL) and PDF documents
// → content parts; tool_use → tool calls; tool_result → tool messages (with their images in a user message after
// them, as chat tool messages carry text only); thinking and redacted thinking → reasoning_details
// (thinking-blocks.ts); tools, tool_choice, stop_sequences, sampling, `thinking` and `metadata.user_id` → their chat
// spellings. `cache_control` is Anthropic's alone and is dropped here (a request served by an anthropic-kind
// provider goes through untranslated and keeps it). Block types only Anthropic runs (server tools and their
// results, search results, container uploads) are valid for the native path and named in `untranslatable` for the
// others.

import { z } from 'zod';
import {
  ApiError,
  reasoningEfforts,
  type ChatMessage,
  type ReasoningEffort,
  type ChatRequest,
  type ContentPart,
  type FunctionTool,
  type ReasoningDetail,
  type ToolCall,
  type ToolChoice,
} from '../../../../shared/api/index.js';
import { formatPath, parseRequestBody } from '../../http/validate-chat-request.js';
import { detailsOfThinkingBlock } from './thinking-blocks.js';

const imageMediaTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
const base64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;
const base64Data = z.string().min(1).regex(base64, { error: 'must be base64' });

const textBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
const imageBlockSchema = z.looseObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: z.enum(imageMediaTypes), data: base64Data }),
    z.looseObject({ type: z.literal('url'), url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }) }),
    z.looseObject({ type: z.literal('file'), file_id: z.string() }),
  ]),
});
const documentBlockSchema = z.looseObject({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: base64Data }),
    z.looseObject({ type: z.literal('text'), media_type: z.string().optional(), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string() }),
    z.looseObject({ type: z.literal('content'), content: z.unknown() }),
    z.looseObject({ type: z.literal('file'), file_id: z.string() }),
  ]),
  title: z.string().nullish(),
});
const toolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
});
const toolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z
    .union([z.string(), z.array(z.union([textBlockSchema, imageBlockSchema, documentBlockSchema]))], {
      error: 'must be a string or an array of text, image or document blocks',
    })
    .optional(),
  is_error: z.boolean().optional(),
});
const thinkingBlockSchema = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().nullish(),
});
const redactedThinkingBlockSchema = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

const knownBlockTypes = [
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
] as const;
/** Anthropic's other blocks (server_tool_use, web_search_tool_result, search_result…): passed on natively. */
const otherBlockSchema = z.looseObject({
  type: z.string().refine((type) => !(knownBlockTypes as readonly string[]).includes(type), {
    error: 'is not a valid block',
    abort: true,
  }),
});
const contentBlockSchema = z.union([
  z.discriminatedUnion('type', [
    textBlockSchema,
    imageBlockSchema,
    documentBlockSchema,
    toolUseBlockSchema,
    toolResultBlockSchema,
    thinkingBlockSchema,
    redactedThinkingBlockSchema,
  ]),
  otherBlockSchema,
]);
type ContentBlock = z.output<typeof contentBlockSchema>;
type ImageBlock = z.output<typeof imageBlockSchema>;
type DocumentBlock = z.output<typeof documentBlockSchema>;

/** `system` mid-conversation: Claude Code sends it (beta mid-conversation-system-2026-04-07) to models it does not know. */
const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(contentBlockSchema)], { error: 'must be a string or an array of blocks' }),
});

/** A custom tool (`input_schema`), or one of Anthropic's own (`type` like `web_search_20250305`). */
const toolSchema = z.looseObject({
  type: z.string().optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
});

const toolChoiceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({
    type: z.literal('tool'),
    name: z.string().min(1),
    disable_parallel_tool_use: z.boolean().optional(),
  }),
  z.looseObject({ type: z.literal('none') }),
]);

const thinkingSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('enabled'), budget_tokens: z.int().min(1) }),
  z.looseObject({ type: z.literal('disabled') }),
  z.looseObject({ type: z.literal('adaptive') }),
]);

const countTokensFields = {
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  system: z
    .union([z.string(), z.array(textBlockSchema)], { error: 'must be a string or an array of text blocks' })
    .optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
  thinking: thinkingSchema.optional(),
};

export const countTokensRequestSchema = z.looseObject(countTokensFields);

export const messagesRequestSchema = z.looseObject({
  ...countTokensFields,
  max_tokens: z.int().min(1),
  stream: z.boolean().optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.int().min(0).optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  output_config: z.looseObject({ effort: z.string().optional() }).optional(),
});

export type MessagesRequest = z.output<typeof messagesRequestSchema>;
export type CountTokensRequest = z.output<typeof countTokensRequestSchema>;

export interface MessagesTranslation {
  chatRequest: ChatRequest;
  /**
   * Why the request cannot be translated for a provider of another kind (a block or tool only Anthropic runs),
   * or null. Such a request may still go to an anthropic-kind provider untranslated.
   */
  untranslatable: string | null;
}

export function parseMessagesRequest(body: unknown): MessagesRequest {
  return parseRequestBody(messagesRequestSchema, body, {}, ['model', 'messages', 'max_tokens']);
}

export function parseCountTokensRequest(body: unknown): CountTokensRequest {
  return parseRequestBody(countTokensRequestSchema, body, {}, ['model', 'messages']);
}

/** Collects what cannot be translated; the first reason is the one the caller reads. */
class Untranslatable {
  reason: string | null = null;
  note(where: (string | number)[], what: string): void {
    this.reason ??= `${formatPath(where)} is ${what}, which only an Anthropic provider can take (this model is served by another kind)`;
  }
}

function imagePart(block: ImageBlock, where: (string | number)[], untranslatable: Untranslatable): ContentPart[] {
  const { source } = block;
  if (source.type === 'base64') {
    return [{ type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } }];
  }
  if (source.type === 'url') return [{ type: 'image_url', image_url: { url: source.url } }];
  untranslatable.note([...where, 'source'], 'an image by file_id');
  return [];
}

function documentParts(
  block: DocumentBlock,
  where: (string | number)[],
  untranslatable: Untranslatable,
): ContentPart[] {
  const { source } = block;
  const title = block.title ?? undefined;
  if (source.type === 'base64') {
    const file: { file_data: string; filename?: string } = { file_data: `data:application/pdf;base64,${source.data}` };
    if (title) file.filename = title;
    return [{ type: 'file', file }];
  }
  if (source.type === 'text') return [{ type: 'text', text: title ? `${title}\n\n${source.data}` : source.data }];
  untranslatable.note([...where, 'source'], `a document of source type "${source.type}"`);
  return [];
}

function toolResultText(content: z.output<typeof toolResultBlockSchema>['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

function userMessages(
  content: ContentBlock[],
  where: (string | number)[],
  untranslatable: Untranslatable,
): ChatMessage[] {
  const toolMessages: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  content.forEach((block, index) => {
    const at = [...where, index];
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: (block as z.output<typeof textBlockSchema>).text });
        break;
      case 'image':
        parts.push(...imagePart(block as ImageBlock, at, untranslatable));
        break;
      case 'document':
        parts.push(...documentParts(block as DocumentBlock, at, untranslatable));
        break;
      case 'tool_result': {
        const result = block as z.output<typeof toolResultBlockSchema>;
        const text = toolResultText(result.content);
        // Chat tool messages carry no flag: the model reads that the tool failed.
        const shown = result.is_error ? `Error: ${text}` : text;
        toolMessages.push({ role: 'tool', tool_call_id: result.tool_use_id, content: shown });
        if (Array.isArray(result.content)) {
          result.content.forEach((inner, innerIndex) => {
            const innerAt = [...at, 'content', innerIndex];
            if (inner.type === 'image') parts.push(...imagePart(inner, innerAt, untranslatable));
            if (inner.type === 'document') parts.push(...documentParts(inner, innerAt, untranslatable));
          });
        }
        break;
      }
      default:
        untranslatable.note([...at, 'type'], `a "${block.type}" block in a user message`);
    }
  });
  const messages = [...toolMessages];
  if (parts.length > 0) messages.push({ role: 'user', content: parts });
  return messages;
}

function assistantMessage(
  content: ContentBlock[],
  where: (string | number)[],
  untranslatable: Untranslatable,
): ChatMessage | null {
  let text = '';
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  content.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        text += (block as z.output<typeof textBlockSchema>).text;
        break;
      case 'thinking':
      case 'redacted_thinking': {
        const thinking = block as z.output<typeof thinkingBlockSchema> | z.output<typeof redactedThinkingBlockSchema>;
        if (thinking.type === 'thinking') reasoning += thinking.thinking;
        details.push(...detailsOfThinkingBlock(thinking, index));
        break;
      }
      case 'tool_use': {
        const call = block as z.output<typeof toolUseBlockSchema>;
        toolCalls.push({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.input) },
        });
        break;
      }
      default:
        untranslatable.note([...where, index, 'type'], `a "${block.type}" block in an assistant message`);
    }
  });
  if (text === '' && toolCalls.length === 0 && details.length === 0) return null;
  const message: ChatMessage = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== '') message.reasoning = reasoning;
  if (details.length > 0) message.reasoning_details = details;
  return message;
}

function systemText(content: ContentBlock[], where: (string | number)[], untranslatable: Untranslatable): string {
  return content
    .map((block, index) => {
      if (block.type === 'text') return (block as z.output<typeof textBlockSchema>).text;
      untranslatable.note([...where, index, 'type'], `a "${block.type}" block in a system message`);
      return '';
    })
    .join('');
}

function toolsOf(tools: CountTokensRequest['tools'], untranslatable: Untranslatable): FunctionTool[] {
  return (tools ?? []).flatMap((tool, index): FunctionTool[] => {
    if ((tool.type !== undefined && tool.type !== 'custom') || tool.input_schema === undefined) {
      untranslatable.note(['tools', index], `Anthropic's server tool "${tool.type ?? tool.name}"`);
      return [];
    }
    const fn: FunctionTool['function'] = { name: tool.name, parameters: tool.input_schema };
    if (tool.description) fn.description = tool.description;
    return [{ type: 'function', function: fn }];
  });
}

function toolChoiceOf(choice: NonNullable<CountTokensRequest['tool_choice']>): ToolChoice {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}

/** Anthropic's effort levels as ours; one we do not know leaves the depth to the upstream. */
function effortOf(effort: string | undefined): ReasoningEffort | undefined {
  if (effort === 'max') return 'xhigh';
  return (reasoningEfforts as readonly string[]).includes(effort ?? '') ? (effort as ReasoningEffort) : undefined;
}

/** The chat request a (validated) Anthropic request stands for, and what of it only Anthropic can take. */
export function translateMessagesRequest(request: MessagesRequest | CountTokensRequest): MessagesTranslation {
  const untranslatable = new Untranslatable();
  const messages: ChatMessage[] = [];
  if (typeof request.system === 'string') {
    if (request.system !== '') messages.push({ role: 'system', content: request.system });
  } else if (request.system?.length) {
    messages.push({ role: 'system', content: request.system.map((block) => ({ type: 'text', text: block.text })) });
  }
  request.messages.forEach((message, position) => {
    const where = ['messages', position, 'content'];
    if (typeof message.content === 'string') {
      messages.push({ role: message.role, content: message.content });
    } else if (message.role === 'system') {
      messages.push({ role: 'system', content: systemText(message.content, where, untranslatable) });
    } else if (message.role === 'user') {
      messages.push(...userMessages(message.content, where, untranslatable));
    } else {
      const assistant = assistantMessage(message.content, where, untranslatable);
      if (assistant) messages.push(assistant);
    }
  });
  if (messages.length === 0) throw new ApiError(400, 'Invalid request: messages must hold some content.');
  const full = request as Partial<MessagesRequest>;
  const chatRequest: ChatRequest = { model: request.model, messages, stream: full.stream === true };
  const tools = toolsOf(request.tools, untranslatable);
  if (tools.length > 0) chatRequest.tools = tools;
  const choice = request.tool_choice;
  if (choice && (tools.length > 0 || choice.type === 'none')) {
    chatRequest.tool_choice = toolChoiceOf(choice);
    if ('disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true && tools.length > 0) {
      chatRequest.parallel_tool_calls = false;
    }
  }
  if (request.thinking?.type === 'enabled') chatRequest.reasoning = { max_tokens: request.thinking.budget_tokens };
  if (request.thinking?.type === 'adaptive') {
    // Adaptive thinking takes its depth from `output_config.effort` (Anthropic's `max` is the deepest there is).
    const effort = effortOf(full.output_config?.effort);
    chatRequest.reasoning = effort ? { effort } : { enabled: true };
  }
  if (full.max_tokens !== undefined) chatRequest.max_tokens = full.max_tokens;
  if (full.stop_sequences?.length) chatRequest.stop = full.stop_sequences;
  if (full.temperature !== undefined) chatRequest.temperature = full.temperature;
  if (full.top_p !== undefined) chatRequest.top_p = full.top_p;
  if (full.top_k !== undefined) chatRequest.top_k = full.top_k;
  if (full.metadata?.user_id) chatRequest.user = full.metadata.user_id;
  return { chatRequest, untranslatable: untranslatable.reason };
}
