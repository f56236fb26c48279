// A Responses API request (POST /v1/responses) validated with its own schema, so that errors name its fields
// (`input[2].content[0].image_url`), and translated to the one chat request the gateway runs on any provider kind:
// input items become messages (consecutive reasoning, assistant text and tool calls are one assistant turn; a
// reasoning item's encrypted_content gives back the reasoning details it carried), `instructions` and developer
// messages become system messages. Tools are responses-tools.ts's; hosted ones (web search…) hosted-tools.ts's.
// docs/decisions/013-responses-api.md says what is refused and why.

import { z } from 'zod';
import {
  ApiError,
  isAcceptedImageUrl,
  reasoningEfforts,
  type ChatMessage,
  type ChatRequest,
  type ContentPart,
  type ReasoningDetail,
  type ToolCall,
} from '../../../../shared/api/index.js';
import { parseRequestBody } from '../../http/validate-chat-request.js';
import { hostedToolsOf, type HostedTools } from './hosted-tools.js';
import { decodeReasoningDetails } from './reasoning-carrier.js';
import {
  chatToolChoiceOf,
  chatToolsOf,
  namespacedToolName,
  toolChoiceSchema,
  toolSchema,
  type ToolDeclaration,
  type ToolNaming,
} from './responses-tools.js';

const dataUrl = /^data:[a-z0-9.+-]+\/[a-z0-9.+-]+(;[^;,]+)*;base64,[A-Za-z0-9+/]+={0,2}$/i;

const inputTextSchema = z.looseObject({ type: z.literal('input_text'), text: z.string() });
const outputTextSchema = z.looseObject({ type: z.literal('output_text'), text: z.string() });
const refusalSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });
const inputImageSchema = z
  .looseObject({
    type: z.literal('input_image'),
    image_url: z
      .string()
      .refine(isAcceptedImageUrl, { error: 'must be a data URL "data:image/<type>;base64,<data>" or an http(s) URL' })
      .optional(),
    file_id: z.string().optional(),
    detail: z.string().optional(),
  })
  .superRefine((image, context) => {
    if (image.image_url !== undefined) return;
    const fileId = image.file_id !== undefined;
    context.addIssue({
      code: 'custom',
      path: [fileId ? 'file_id' : 'image_url'],
      message: fileId
        ? 'is not supported: Switchyard keeps no uploaded files; send the image as image_url (a data URL)'
        : 'is required',
      input: image,
    });
  });
const inputFileSchema = z
  .looseObject({
    type: z.literal('input_file'),
    file_data: z.string().regex(dataUrl, { error: 'must be a base64 data URL "data:<type>;base64,<data>"' }).optional(),
    file_id: z.string().optional(),
    file_url: z.string().optional(),
    filename: z.string().optional(),
  })
  .superRefine((file, context) => {
    if (file.file_data !== undefined) return;
    const unsupported = file.file_id !== undefined ? 'file_id' : file.file_url !== undefined ? 'file_url' : null;
    context.addIssue({
      code: 'custom',
      path: [unsupported ?? 'file_data'],
      message: unsupported
        ? 'is not supported: Switchyard keeps and fetches no files; send the file as file_data (a data URL)'
        : 'is required',
      input: file,
    });
  });
const contentPartSchema = z.discriminatedUnion('type', [
  inputTextSchema,
  outputTextSchema,
  refusalSchema,
  inputImageSchema,
  inputFileSchema,
]);
const mediaPartTypes = new Set(['input_image', 'input_file']);

const messageItemSchema = z
  .looseObject({
    type: z.literal('message'),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.union([z.string(), z.array(contentPartSchema)], {
      error: 'must be a string or an array of content parts',
    }),
  })
  .superRefine((message, context) => {
    if (typeof message.content === 'string') return;
    message.content.forEach((part, index) => {
      const issue = (text: string) =>
        context.addIssue({ code: 'custom', path: ['content', index, 'type'], message: text, input: part });
      if (mediaPartTypes.has(part.type) && message.role !== 'user') issue(`"${part.type}" is only allowed for "user"`);
      if ((part.type === 'output_text' || part.type === 'refusal') && message.role !== 'assistant') {
        issue(`"${part.type}" is only allowed for "assistant"`);
      }
    });
  });
// A function's and a custom tool's calls and outputs differ only in their type and in what carries the call's
// input (`arguments`, `input`).
const toolCallFields = { call_id: z.string().min(1), name: z.string().min(1), namespace: z.string().optional() };
const functionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  ...toolCallFields,
  arguments: z.string(),
});
const customToolCallItemSchema = z.looseObject({
  type: z.literal('custom_tool_call'),
  ...toolCallFields,
  input: z.string(),
});
const toolOutputPartSchema = z.discriminatedUnion('type', [inputTextSchema, inputImageSchema, inputFileSchema]);
const toolOutputSchema = z.union([z.string(), z.array(toolOutputPartSchema)], {
  error: 'must be a string or an array of content parts',
});
function toolOutputItemSchema<Type extends string>(type: Type) {
  return z.looseObject({ type: z.literal(type), call_id: z.string().min(1), output: toolOutputSchema });
}
const functionCallOutputItemSchema = toolOutputItemSchema('function_call_output');
const customToolCallOutputItemSchema = toolOutputItemSchema('custom_tool_call_output');
const reasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  summary: z.array(z.looseObject({ text: z.string() })).optional(),
  content: z.array(z.looseObject({ text: z.string() })).nullish(),
  encrypted_content: z.string().nullish(),
});
const itemReferenceSchema = z.looseObject({ type: z.literal('item_reference') }).superRefine((item, context) => {
  context.addIssue({
    code: 'custom',
    path: ['type'],
    message: '"item_reference" is not supported: Switchyard keeps no responses; send the item itself',
    input: item,
  });
});

/** A web search of an earlier answer (ours, or OpenAI's): what it found is in the answer's text already. */
const webSearchCallItemSchema = z.looseObject({ type: z.literal('web_search_call') });

const inputItemSchema = z.preprocess(
  // A message may leave out its type (OpenAI's "easy input message").
  (item) =>
    item !== null && typeof item === 'object' && !('type' in item) && 'role' in item
      ? { type: 'message', ...item }
      : item,
  z.discriminatedUnion('type', [
    messageItemSchema,
    functionCallItemSchema,
    functionCallOutputItemSchema,
    customToolCallItemSchema,
    customToolCallOutputItemSchema,
    reasoningItemSchema,
    itemReferenceSchema,
    webSearchCallItemSchema,
  ]),
);

const textFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    schema: z.record(z.string(), z.unknown()),
    description: z.string().optional(),
    strict: z.boolean().nullish(),
  }),
]);

function refused(message: string) {
  return z.unknown().superRefine((value, context) => {
    context.addIssue({ code: 'custom', message, input: value });
  });
}

const stateless = 'Switchyard keeps no responses: send the whole conversation in "input" (with store: false)';

export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(inputItemSchema)], { error: 'must be a string or an array of input items' }),
  instructions: z.string().optional(),
  stream: z.boolean().optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
  parallel_tool_calls: z.boolean().optional(),
  reasoning: z.looseObject({ effort: z.enum(reasoningEfforts).nullish(), summary: z.string().nullish() }).optional(),
  text: z
    .looseObject({ format: textFormatSchema.optional(), verbosity: z.enum(['low', 'medium', 'high']).nullish() })
    .optional(),
  max_output_tokens: z.int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  include: z.array(z.string()).optional(),
  store: z.boolean().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  user: z.string().optional(),
  safety_identifier: z.string().optional(),
  prompt_cache_key: z.string().optional(),
  service_tier: z.string().optional(),
  previous_response_id: refused(`is not supported: ${stateless}`).optional(),
  conversation: refused(`is not supported: ${stateless}`).optional(),
  background: z
    .boolean()
    .refine((value) => !value, { error: 'is not supported: Switchyard answers while the request is open' })
    .optional(),
  prompt: refused('is not supported: Switchyard keeps no prompt templates; send "instructions" and "input"').optional(),
});

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;
type InputItem = Extract<z.output<typeof inputItemSchema>, { type: string }>;
type ToolOutput = z.output<typeof toolOutputSchema>;

/** What the answer needs to know of the request. */
export interface ResponsesTranslation {
  request: ResponsesRequest;
  chatRequest: ChatRequest;
  naming: ToolNaming;
  /** `include` asked for `reasoning.encrypted_content`. */
  includeEncryptedReasoning: boolean;
  /** `reasoning.summary` asked for a summary: the reasoning text is shown as one. */
  summarizeReasoning: boolean;
  /** `include` asked for `web_search_call.action.sources`: the pages a search found go with it. */
  includeSearchSources: boolean;
  /** The hosted tools: the web search kept where the provider runs one, the others left out. */
  hosted: HostedTools;
}

/** Validates a Responses request body; throws ApiError(400) naming the offending fields. */
export function parseResponsesRequest(body: unknown): ResponsesRequest {
  return parseRequestBody(responsesRequestSchema, body, {}, ['model', 'input']);
}

export function translateResponsesRequest(body: unknown): ResponsesTranslation {
  const request = parseResponsesRequest(body);
  const declared = (request.tools ?? []) as ToolDeclaration[];
  const { tools, naming } = chatToolsOf(declared);
  const hosted = hostedToolsOf(declared);
  const messages: ChatMessage[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  messages.push(...messagesOf(request.input));
  if (messages.length === 0) throw new ApiError(400, 'Invalid request: input must not be empty.');
  const chatRequest: ChatRequest = { model: request.model, messages, stream: request.stream === true };
  if (tools.length > 0) chatRequest.tools = tools;
  const toolChoice = chatToolChoiceOf(request.tool_choice, tools);
  if (toolChoice !== undefined) chatRequest.tool_choice = toolChoice;
  if (hosted.webSearch) chatRequest.web_search_options = hosted.webSearch.options;
  if (request.parallel_tool_calls !== undefined && tools.length > 0) {
    chatRequest.parallel_tool_calls = request.parallel_tool_calls;
  }
  if (request.reasoning?.effort) chatRequest.reasoning = { effort: request.reasoning.effort };
  const format = request.text?.format;
  if (format?.type === 'json_object') chatRequest.response_format = { type: 'json_object' };
  if (format?.type === 'json_schema') {
    const { name, schema, description, strict } = format;
    chatRequest.response_format = { type: 'json_schema', json_schema: { name, schema, description, strict } };
  }
  if (request.text?.verbosity) chatRequest.verbosity = request.text.verbosity;
  const copied = ['temperature', 'top_p', 'user', 'safety_identifier', 'prompt_cache_key', 'service_tier'] as const;
  for (const field of copied) if (request[field] !== undefined) Object.assign(chatRequest, { [field]: request[field] });
  if (request.max_output_tokens !== undefined) chatRequest.max_completion_tokens = request.max_output_tokens;
  const summary = request.reasoning?.summary;
  return {
    request,
    chatRequest,
    naming,
    includeEncryptedReasoning: request.include?.includes('reasoning.encrypted_content') ?? false,
    summarizeReasoning: typeof summary === 'string' && summary !== 'none',
    includeSearchSources: request.include?.includes('web_search_call.action.sources') ?? false,
    hosted,
  };
}

/** The assistant turn being gathered from consecutive reasoning, assistant message and tool-call items. */
interface AssistantTurn {
  parts: ContentPart[];
  toolCalls: ToolCall[];
  details: ReasoningDetail[];
  reasoning: string[];
}

function messagesOf(input: ResponsesRequest['input']): ChatMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const messages: ChatMessage[] = [];
  let turn: AssistantTurn | null = null;
  // Images and files tool results returned (Codex's view_image does): only a user message may carry them, and one
  // between tool results would split the turn, so they follow the turn's last tool result.
  let toolMedia: ContentPart[] = [];
  const push = (message: ChatMessage) => {
    if (message.role !== 'tool' && toolMedia.length > 0) {
      messages.push({ role: 'user', content: toolMedia });
      toolMedia = [];
    }
    messages.push(message);
  };
  const assistant = (): AssistantTurn => (turn ??= { parts: [], toolCalls: [], details: [], reasoning: [] });
  const flush = () => {
    if (turn) push(assistantMessage(turn));
    turn = null;
  };
  for (const item of input as InputItem[]) {
    switch (item.type) {
      case 'reasoning': {
        const details = item.encrypted_content ? decodeReasoningDetails(item.encrypted_content) : null;
        if (details) assistant().details.push(...details);
        else assistant().reasoning.push(...(item.summary ?? []).map((part) => part.text));
        break;
      }
      case 'message':
        if (item.role === 'assistant') {
          assistant().parts.push(...assistantParts(item.content));
          break;
        }
        flush();
        push({ role: item.role === 'user' ? 'user' : 'system', content: userContent(item.content) });
        break;
      case 'function_call':
      case 'custom_tool_call': {
        const name = item.namespace ? namespacedToolName(item.namespace, item.name) : item.name;
        const args = item.type === 'function_call' ? item.arguments : JSON.stringify({ input: item.input });
        assistant().toolCalls.push({ id: item.call_id, type: 'function', function: { name, arguments: args } });
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        flush();
        const parts = typeof item.output === 'string' ? null : userContent(item.output);
        if (typeof parts === 'string' || parts === null) {
          push({ role: 'tool', tool_call_id: item.call_id, content: parts ?? (item.output as string) });
          break;
        }
        const texts = parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
        push({ role: 'tool', tool_call_id: item.call_id, content: texts.join('\n') });
        toolMedia.push(...parts.filter((part) => part.type !== 'text'));
        break;
      }
      case 'item_reference': // refused by the schema
      case 'web_search_call': // its results are in the assistant's text, which stays one turn around it
        break;
    }
  }
  flush();
  if (toolMedia.length > 0) messages.push({ role: 'user', content: toolMedia });
  return messages;
}

function assistantMessage(turn: AssistantTurn): ChatMessage {
  const message: ChatMessage = {
    role: 'assistant',
    content: turn.parts.length > 0 ? turn.parts : turn.toolCalls.length > 0 ? null : '',
  };
  if (turn.toolCalls.length > 0) message.tool_calls = turn.toolCalls;
  if (turn.details.length > 0) message.reasoning_details = turn.details;
  if (turn.reasoning.length > 0) message.reasoning = turn.reasoning.join('\n\n');
  return message;
}

type MessageContent = Extract<InputItem, { type: 'message' }>['content'];

function assistantParts(content: MessageContent): ContentPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.flatMap((part): ContentPart[] => {
    if (part.type === 'refusal') return [{ type: 'refusal', refusal: part.refusal }];
    if (part.type === 'output_text' || part.type === 'input_text') return [{ type: 'text', text: part.text }];
    return [];
  });
}

function userContent(content: MessageContent | ToolOutput): string | ContentPart[] {
  if (typeof content === 'string') return content;
  return content.flatMap((part): ContentPart[] => {
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        return [{ type: 'text', text: part.text }];
      case 'input_image': {
        const detail = ['auto', 'low', 'high'].includes(part.detail ?? '') ? part.detail : undefined;
        const url = part.image_url ?? '';
        return [{ type: 'image_url', image_url: detail ? { url, detail: detail as 'auto' } : { url } }];
      }
      case 'input_file': {
        const file = part.filename
          ? { file_data: part.file_data, filename: part.filename }
          : { file_data: part.file_data };
        return [{ type: 'file', file }];
      }
      default:
        return [];
    }
  });
}
