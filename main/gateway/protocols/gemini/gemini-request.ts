// A Gemini API request (:generateContent, :streamGenerateContent, :countTokens) read as Google reads it: each field
// under either of its names (`inlineData` or `inline_data`, renamed to the first before anything else looks at it),
// validated with its own schema (gemini-request-schema.ts), so that errors name its fields, and translated to the one
// chat request the gateway runs on any provider kind. Unknown fields are kept (a google-kind upstream gets them) and
// ignored by the translation.
//
// Translation: systemInstruction → a system message; `user` turns → user messages, their functionResponse parts →
// tool messages (before the rest of the turn); `model` turns → assistant messages with tool calls; thought
// signatures → reasoning_details (ours carry the details of the answer they came with, Gemini's own are kept as
// Gemini-format details), so a tool loop hands every provider its signatures back. Tools, toolConfig and
// generationConfig map to their chat-completions equivalents; tools only Gemini runs (googleSearch, codeExecution…)
// cannot be translated and are named in a 400.

import {
  ApiError,
  type ChatMessage,
  type ChatRequest,
  type ContentPart,
  type FunctionTool,
  type ReasoningDetail,
  type ReasoningRequest,
  type ToolCall,
  type ToolChoice,
} from '../../../../shared/api/index.js';
import { geminiReasoningFormat } from '../../../providers/index.js';
import { parseChatRequest, parseRequestBody } from '../../http/validate-chat-request.js';
import { decodeThoughtSignature } from './thought-signature.js';
import { convertFromGeminiSchema } from './convert-from-gemini-schema.js';
import {
  countTokensRequestSchema,
  generateContentRequestSchema,
  type GeminiInboundContent,
  type GeminiInboundPart,
  type GenerateContentRequest,
} from './gemini-request-schema.js';
import { jsonFieldNames } from './json-field-names.js';

const generateContentJsonNames = jsonFieldNames(generateContentRequestSchema);
const countTokensJsonNames = jsonFieldNames(countTokensRequestSchema);

/** A Gemini request as read: validated for the translation, and as a google-kind upstream gets it. */
export interface GeminiRequest {
  parsed: GenerateContentRequest;
  /** The body as it came, with every field the schema declares under its JSON name (`inlineData`, not `inline_data`). */
  body: Record<string, unknown>;
}

/** Validates a :generateContent / :streamGenerateContent body; throws ApiError(400) naming the Gemini fields. */
export function parseGenerateContentRequest(body: unknown): GeminiRequest {
  const renamed = generateContentJsonNames(body);
  const parsed = parseRequestBody(generateContentRequestSchema, renamed, {}, ['contents']);
  return { parsed, body: renamed as Record<string, unknown> };
}

/** Validates a :countTokens body as the GenerateContentRequest whose prompt is counted. */
export function parseCountTokensRequest(body: unknown): GeminiRequest {
  const renamed = countTokensJsonNames(body);
  const parsed = parseRequestBody(countTokensRequestSchema, renamed);
  const request = parsed.generateContentRequest ?? (parsed.contents?.length ? { contents: parsed.contents } : null);
  if (!request) throw new ApiError(400, 'Invalid request: contents is required (or send generateContentRequest).');
  return { parsed: request, body: renamed as Record<string, unknown> };
}

// ---- Tools only Gemini runs ---------------------------------------------------------------------------------------

/** The tools of a request that only Gemini models run (googleSearch, codeExecution, urlContext…), as `tools[i].x`. */
export function geminiOnlyTools(request: GenerateContentRequest): string[] {
  return (request.tools ?? []).flatMap((tool, index) =>
    Object.entries(tool)
      .filter(([field, value]) => field !== 'functionDeclarations' && value !== undefined && value !== null)
      .map(([field]) => `tools[${index}].${field}`),
  );
}

// ---- Contents → messages ------------------------------------------------------------------------------------------

/** Audio media subtypes → the formats OpenAI names (`input_audio.format`). */
const audioFormats: Record<string, string> = { mpeg: 'mp3', mp3: 'mp3', wav: 'wav', 'x-wav': 'wav', wave: 'wav' };

function mediaPart(part: GeminiInboundPart, where: string): ContentPart {
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    const mediaType = mimeType.toLowerCase();
    const dataUrl = `data:${mediaType};base64,${data}`;
    if (mediaType.startsWith('image/')) return { type: 'image_url', image_url: { url: dataUrl } };
    if (mediaType.startsWith('audio/')) {
      const subtype = mediaType.slice('audio/'.length);
      return { type: 'input_audio', input_audio: { data, format: audioFormats[subtype] ?? subtype } };
    }
    return { type: 'file', file: { file_data: dataUrl } };
  }
  const { fileUri, mimeType } = part.fileData!;
  if (/^https?:\/\//i.test(fileUri) && (mimeType === undefined || mimeType.toLowerCase().startsWith('image/'))) {
    return { type: 'image_url', image_url: { url: fileUri } };
  }
  throw new ApiError(
    400,
    `Invalid request: ${where}.fileData can be translated only as an image by http(s) URL; send other files as inlineData.`,
  );
}

/** The reasoning details a thought signature stands for: ours carry them whole, Gemini's own is one detail. */
function signatureDetails(signature: string, toolCallId?: string): ReasoningDetail[] {
  const carried = decodeThoughtSignature(signature);
  if (carried) return carried;
  const detail: ReasoningDetail = { type: 'reasoning.encrypted', data: signature, format: geminiReasoningFormat };
  if (toolCallId !== undefined) detail.id = toolCallId;
  return [detail];
}

interface PendingCall {
  id: string;
  name: string;
}

function modelMessage(
  content: GeminiInboundContent,
  position: number,
  pending: PendingCall[],
  callIds: Set<string>,
): ChatMessage | null {
  let text = '';
  const toolCalls: ToolCall[] = [];
  const details: ReasoningDetail[] = [];
  content.parts.forEach((part, partIndex) => {
    let toolCallId: string | undefined;
    if (part.functionCall) {
      const { name, args, id } = part.functionCall;
      // Gemini's calls often come without ids; every other kind needs one that the response names again.
      toolCallId = id && !callIds.has(id) ? id : `call_${position}_${partIndex}`;
      callIds.add(toolCallId);
      toolCalls.push({ id: toolCallId, type: 'function', function: { name, arguments: JSON.stringify(args ?? {}) } });
      pending.push({ id: toolCallId, name });
    } else if (part.text !== undefined && !part.thought) {
      text += part.text;
    }
    if (part.thoughtSignature) details.push(...signatureDetails(part.thoughtSignature, toolCallId));
  });
  if (text === '' && toolCalls.length === 0) return null;
  const message: ChatMessage = { role: 'assistant', content: text === '' ? null : text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (details.length > 0) message.reasoning_details = details;
  return message;
}

/** The pending call a functionResponse answers: by id, else the first unanswered call of that name. */
function answeredCall(pending: PendingCall[], name: string, id: string | undefined, where: string): PendingCall {
  const byId = id === undefined ? -1 : pending.findIndex((call) => call.id === id);
  const index = byId !== -1 ? byId : pending.findIndex((call) => call.name === name);
  if (index === -1) {
    throw new ApiError(
      400,
      `Invalid request: ${where}.functionResponse "${name}" answers no functionCall of the model turn before it.`,
    );
  }
  return pending.splice(index, 1)[0]!;
}

function userMessages(content: GeminiInboundContent, position: number, pending: PendingCall[]): ChatMessage[] {
  const results: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  content.parts.forEach((part, partIndex) => {
    const where = `contents[${position}].parts[${partIndex}]`;
    if (part.functionResponse) {
      const { name, response, id } = part.functionResponse;
      const call = answeredCall(pending, name, id, where);
      results.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(response ?? {}) });
    } else if (part.inlineData || part.fileData) {
      parts.push(mediaPart(part, where));
    } else if (part.text !== undefined && part.text !== '' && !part.thought) {
      parts.push({ type: 'text', text: part.text });
    }
  });
  if (parts.length === 0) return results;
  const onlyText = parts.every((part) => part.type === 'text');
  const userContent = onlyText ? parts.map((part) => (part as { text: string }).text).join('') : parts;
  return [...results, { role: 'user', content: userContent }];
}

function systemMessage(instruction: GenerateContentRequest['systemInstruction']): ChatMessage | null {
  if (instruction === undefined) return null;
  const text =
    typeof instruction === 'string'
      ? instruction
      : instruction.parts.flatMap((part) => (part.text && !part.thought ? [part.text] : [])).join('\n');
  return text === '' ? null : { role: 'system', content: text };
}

export function convertGeminiContents(request: GenerateContentRequest): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const system = systemMessage(request.systemInstruction);
  if (system) messages.push(system);
  let pending: PendingCall[] = [];
  const callIds = new Set<string>();
  request.contents.forEach((content, position) => {
    if (content.role === 'model') {
      pending = [];
      const message = modelMessage(content, position, pending, callIds);
      if (message) messages.push(message);
    } else {
      messages.push(...userMessages(content, position, pending));
    }
  });
  return messages;
}

// ---- Tools, tool choice, generation config ------------------------------------------------------------------------

function functionTools(request: GenerateContentRequest): FunctionTool[] {
  return (request.tools ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((declaration) => {
      const fn: FunctionTool['function'] = { name: declaration.name };
      if (declaration.description) fn.description = declaration.description;
      const parameters =
        declaration.parametersJsonSchema ??
        (declaration.parameters ? convertFromGeminiSchema(declaration.parameters) : undefined);
      if (parameters) fn.parameters = parameters;
      return { type: 'function' as const, function: fn };
    }),
  );
}

function toolChoiceOf(request: GenerateContentRequest): ToolChoice | undefined {
  const config = request.toolConfig?.functionCallingConfig;
  if (!config) return undefined;
  if (config.mode === 'NONE') return 'none';
  const names = config.allowedFunctionNames ?? [];
  const required = config.mode === 'ANY';
  if (names.length === 0) return required ? 'required' : config.mode === undefined ? undefined : 'auto';
  if (required && names.length === 1) return { type: 'function', function: { name: names[0]! } };
  return {
    type: 'allowed_tools',
    allowed_tools: {
      mode: required ? 'required' : 'auto',
      tools: names.map((name) => ({ type: 'function' as const, function: { name } })),
    },
  };
}

/** thinkingConfig → reasoning. No thinkingConfig: the model's default. */
export function reasoningOf(config: GenerateContentRequest['generationConfig']): ReasoningRequest | undefined {
  const thinking = config?.thinkingConfig;
  if (!thinking) return undefined;
  const level = thinking.thinkingLevel === 'thinking_level_unspecified' ? undefined : thinking.thinkingLevel;
  const budget = thinking.thinkingBudget;
  if (budget === 0) return { enabled: false };
  const reasoning: ReasoningRequest = {};
  if (level) reasoning.effort = level;
  else if (budget !== undefined && budget > 0) reasoning.max_tokens = budget;
  else if (thinking.includeThoughts !== true && budget === undefined) return undefined;
  else reasoning.enabled = true;
  if (thinking.includeThoughts !== true) reasoning.exclude = true;
  return reasoning;
}

function responseFormatOf(config: GenerateContentRequest['generationConfig']): ChatRequest['response_format'] {
  if (config?.responseMimeType?.toLowerCase() !== 'application/json') return undefined;
  const schema =
    config.responseJsonSchema ?? (config.responseSchema ? convertFromGeminiSchema(config.responseSchema) : undefined);
  if (!schema) return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: 'response', schema } };
}

export interface ChatRequestOptions {
  /** The model as the path named it (`<provider>/<model>` or an alias). */
  model: string;
  stream: boolean;
}

/**
 * The chat request a Gemini request stands for, unvalidated: the native path uses it only for routing, admission
 * and an estimate of the prompt's tokens. translateGeminiRequest() is the translated path's strict version.
 */
export function chatRequestOf(request: GenerateContentRequest, options: ChatRequestOptions): ChatRequest {
  const config = request.generationConfig;
  const chat: Record<string, unknown> = {
    model: options.model,
    stream: options.stream,
    messages: convertGeminiContents(request),
  };
  const tools = functionTools(request);
  if (tools.length > 0) chat.tools = tools;
  const toolChoice = toolChoiceOf(request);
  if (toolChoice !== undefined && tools.length > 0) chat.tool_choice = toolChoice;
  if (config) {
    const fields: [string, unknown][] = [
      ['temperature', config.temperature],
      ['top_p', config.topP],
      ['top_k', config.topK],
      ['max_tokens', config.maxOutputTokens],
      ['seed', config.seed],
      ['presence_penalty', config.presencePenalty],
      ['frequency_penalty', config.frequencyPenalty],
      ['n', config.candidateCount !== undefined && config.candidateCount > 1 ? config.candidateCount : undefined],
      ['stop', config.stopSequences?.length ? config.stopSequences : undefined],
      ['response_format', responseFormatOf(config)],
      ['reasoning', reasoningOf(config)],
    ];
    for (const [field, value] of fields) if (value !== undefined) chat[field] = value;
  }
  return chat as ChatRequest;
}

/**
 * The chat request for the translated path, validated as every chat request is. Tools only Gemini runs are a 400
 * that names them.
 */
export function translateGeminiRequest(request: GenerateContentRequest, options: ChatRequestOptions): ChatRequest {
  const geminiOnly = geminiOnlyTools(request);
  if (geminiOnly.length > 0) {
    throw new ApiError(
      400,
      `Invalid request: ${geminiOnly.join(', ')} is a tool only Gemini models run, and model "${options.model}" is not served by a google-kind provider. Remove the tool, or use a Gemini model.`,
    );
  }
  const chat = chatRequestOf(request, options);
  if (chat.messages.length === 0) {
    throw new ApiError(400, 'Invalid request: contents has no text, media or function parts to send.');
  }
  return parseChatRequest(chat, { streamByDefault: options.stream });
}
