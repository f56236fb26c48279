// A Responses API request (POST /v1/responses) validated with its own schema, so that errors name its fields
// (`input[2].content[0].image_url`), and translated to the one chat request the gateway runs on any provider kind:
// input items become messages (consecutive reasoning, assistant text and tool calls are one assistant turn; a
// reasoning item's encrypted_content gives back the reasoning details it carried), `instructions` and developer
// messages become system messages, function tools stay functions, a custom (freeform) tool is offered as a function
// with one string argument `input`, a namespace's functions as `<namespace>__<name>`. The ToolNaming remembers
// which is which, to name the calls in the answer as the caller declared them. docs/decisions/013-responses-api.md
// says what is refused and why.

import { z } from 'zod';
import {
  ApiError,
  isAcceptedImageUrl,
  reasoningEfforts,
  type ChatMessage,
  type ChatRequest,
  type ContentPart,
  type FunctionTool,
  type ReasoningDetail,
  type ToolCall,
  type ToolChoice,
} from '../../../../shared/api/index.js';
import { parseRequestBody } from '../../validate-chat-request.js';
import { decodeReasoningDetails } from './reasoning-carrier.js';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const toolName = z.string().regex(toolNamePattern, { error: 'must be 1 to 64 letters, digits, "_" or "-"' });
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
const functionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().optional(),
  arguments: z.string(),
});
const toolOutputPartSchema = z.discriminatedUnion('type', [inputTextSchema, inputImageSchema, inputFileSchema]);
const toolOutputSchema = z.union([z.string(), z.array(toolOutputPartSchema)], {
  error: 'must be a string or an array of content parts',
});
const functionCallOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: toolOutputSchema,
});
const customToolCallItemSchema = z.looseObject({
  type: z.literal('custom_tool_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().optional(),
  input: z.string(),
});
const customToolCallOutputItemSchema = z.looseObject({
  type: z.literal('custom_tool_call_output'),
  call_id: z.string().min(1),
  output: toolOutputSchema,
});
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
  ]),
);

const functionToolSchema = z.looseObject({
  type: z.literal('function'),
  name: toolName,
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});
const customToolSchema = z.looseObject({
  type: z.literal('custom'),
  name: toolName,
  description: z.string().nullish(),
  format: z
    .looseObject({ type: z.string(), syntax: z.string().optional(), definition: z.string().optional() })
    .nullish(),
});
const namespaceToolSchema = z.looseObject({
  type: z.literal('namespace'),
  name: toolName,
  description: z.string().nullish(),
  tools: z.array(z.discriminatedUnion('type', [functionToolSchema, customToolSchema])),
});
/** A tool the caller's provider runs itself (OpenAI's hosted tools): Switchyard has nothing that runs it. */
const hostedToolSchema = z
  .looseObject({
    type: z.string().refine((type) => !['function', 'custom', 'namespace'].includes(type)),
    external_web_access: z.boolean().optional(),
  })
  .superRefine((tool, context) => {
    if (isOfflineWebSearch(tool)) return;
    context.addIssue({
      code: 'custom',
      path: ['type'],
      message: `"${tool.type}" is a tool OpenAI runs on its servers; Switchyard cannot run it: offer function or custom tools`,
      input: tool,
    });
  });
const toolSchema = z.union([functionToolSchema, customToolSchema, namespaceToolSchema, hostedToolSchema]);

/**
 * Codex offers `{"type": "web_search", "external_web_access": false}` by default: a search of OpenAI's cache that
 * the model may use or not. Nothing can run it here, and the model does without; it is left out rather than refused.
 */
function isOfflineWebSearch(tool: { type: string; external_web_access?: boolean }): boolean {
  return tool.type === 'web_search' && tool.external_web_access === false;
}

const toolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.looseObject({ type: z.enum(['function', 'custom']), name: z.string().min(1) }),
    z.looseObject({
      type: z.literal('allowed_tools'),
      mode: z.enum(['auto', 'required']),
      tools: z.array(z.looseObject({ type: z.string(), name: z.string().min(1) })).min(1),
    }),
  ],
  {
    error:
      'must be "none", "auto", "required", {"type": "function", "name": "<tool>"}, {"type": "custom", "name": "<tool>"} or {"type": "allowed_tools", …}',
  },
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

/** How the caller named its tools, to name the model's calls back as it declared them. */
export interface ToolNaming {
  /** Chat names of custom (freeform) tools, whose calls carry `input` rather than JSON arguments. */
  custom: ReadonlySet<string>;
  /** Chat name → the namespace and name the caller declared. */
  namespaced: ReadonlyMap<string, { namespace: string; name: string }>;
}

/** What the answer needs to know of the request. */
export interface ResponsesTranslation {
  request: ResponsesRequest;
  chatRequest: ChatRequest;
  naming: ToolNaming;
  /** `include` asked for `reasoning.encrypted_content`. */
  includeEncryptedReasoning: boolean;
  /** `reasoning.summary` asked for a summary: the reasoning text is shown as one. */
  summarizeReasoning: boolean;
}

/** The name a namespaced function is offered under. */
export function namespacedToolName(namespace: string, name: string): string {
  return `${namespace}__${name}`;
}

/** Validates a Responses request body; throws ApiError(400) naming the offending fields. */
export function parseResponsesRequest(body: unknown): ResponsesRequest {
  return parseRequestBody(responsesRequestSchema, body, {}, ['model', 'input']);
}

export function translateResponsesRequest(body: unknown): ResponsesTranslation {
  const request = parseResponsesRequest(body);
  const { tools, naming } = toolsOf((request.tools ?? []) as ToolDeclaration[]);
  const messages: ChatMessage[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  messages.push(...messagesOf(request.input));
  if (messages.length === 0) throw new ApiError(400, 'Invalid request: input must not be empty.');
  const chatRequest: ChatRequest = { model: request.model, messages, stream: request.stream === true };
  if (tools.length > 0) chatRequest.tools = tools;
  // Without tools (Codex's offline web search may be all it offered) upstreams refuse a tool_choice.
  if (request.tool_choice !== undefined && (tools.length > 0 || typeof request.tool_choice === 'object')) {
    chatRequest.tool_choice = toolChoiceOf(request.tool_choice, tools);
  }
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
  };
}

type FunctionToolDeclaration = z.output<typeof functionToolSchema>;
type CustomToolDeclaration = z.output<typeof customToolSchema>;
type NamespaceDeclaration = z.output<typeof namespaceToolSchema>;
/** The tools the schema let through, told apart by type (hosted ones are left out: only Codex's offline search). */
type ToolDeclaration = FunctionToolDeclaration | CustomToolDeclaration | NamespaceDeclaration | { type: string };

function toolsOf(declared: readonly ToolDeclaration[]): { tools: FunctionTool[]; naming: ToolNaming } {
  const tools: FunctionTool[] = [];
  const custom = new Set<string>();
  const namespaced = new Map<string, { namespace: string; name: string }>();
  const add = (tool: ToolDeclaration, name: string) => {
    if (tool.type === 'function') {
      const { description, parameters, strict } = tool as FunctionToolDeclaration;
      const fn: FunctionTool['function'] = { name, parameters: parameters ?? { type: 'object', properties: {} } };
      if (description) fn.description = description;
      if (typeof strict === 'boolean') fn.strict = strict;
      tools.push({ type: 'function', function: fn });
    } else if (tool.type === 'custom') {
      custom.add(name);
      tools.push({ type: 'function', function: freeformFunction(tool as CustomToolDeclaration, name) });
    }
  };
  for (const tool of declared) {
    if (tool.type === 'namespace') {
      const namespace = tool as NamespaceDeclaration;
      for (const inner of namespace.tools) {
        const name = namespacedToolName(namespace.name, inner.name);
        namespaced.set(name, { namespace: namespace.name, name: inner.name });
        add(inner, name);
      }
    } else if (tool.type === 'function' || tool.type === 'custom') {
      add(tool, (tool as FunctionToolDeclaration).name);
    }
  }
  return { tools, naming: { custom, namespaced } };
}

/** A freeform tool as a function of one string, its grammar told in the description. */
function freeformFunction(tool: CustomToolDeclaration, name: string): FunctionTool['function'] {
  const format = tool.format;
  const grammar =
    format?.type === 'grammar' && format.definition
      ? `\n\nThe input must follow this ${format.syntax ?? ''} grammar:\n${format.definition}`
      : '';
  return {
    name,
    description: `${tool.description ?? ''}${grammar}`.trim() || `The ${name} tool.`,
    parameters: {
      type: 'object',
      properties: { input: { type: 'string', description: `The raw input of ${name}, not JSON.` } },
      required: ['input'],
      additionalProperties: false,
    },
  };
}

function toolChoiceOf(choice: NonNullable<ResponsesRequest['tool_choice']>, tools: FunctionTool[]): ToolChoice {
  const declared = new Set(tools.map((tool) => tool.function.name));
  const named = (name: string, path: string): { type: 'function'; function: { name: string } } => {
    if (!declared.has(name)) {
      throw new ApiError(400, `Invalid request: ${path} "${name}" is not one of the declared tools.`);
    }
    return { type: 'function', function: { name } };
  };
  if (typeof choice === 'string') return choice;
  if (choice.type === 'allowed_tools') {
    const allowed = choice.tools.map((tool, index) => named(tool.name, `tool_choice.tools[${index}].name`));
    return { type: 'allowed_tools', allowed_tools: { mode: choice.mode, tools: allowed } };
  }
  return named(choice.name, 'tool_choice.name');
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
      case 'item_reference':
        break; // refused by the schema
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
