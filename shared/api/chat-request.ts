// The one definition of a chat-completions request (spec 2.1–2.5, and the parameters OpenAI and OpenRouter define
// beyond it): a zod schema from which the request types are derived, so the validator and the types cannot drift.
// The gateway validates callers' bodies with it (main/gateway/validate-chat-request.ts adds the error wording);
// adapters read the typed result. Fields the schema does not describe are kept, at the top level as in messages and
// their parts: an OpenAI-compatible upstream gets every field the gateway does not consume itself, future ones
// included, as OpenRouter forwards them (docs/parameters.md has the rules per provider kind).

import { z } from 'zod';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const dataUrlHeader = /^data:image\/[a-z0-9.+-]+;base64,/i;
const base64Payload = /^[A-Za-z0-9+/]*={0,2}$/;

/** Images travel as base64 data URLs (spec 2.3); http(s) URLs are accepted too for upstreams that fetch them. */
export function isAcceptedImageUrl(url: string): boolean {
  if (url.startsWith('data:')) {
    const header = dataUrlHeader.exec(url.slice(0, 256));
    if (!header) return false;
    const payload = url.slice(header[0].length);
    return payload.length > 0 && base64Payload.test(payload);
  }
  if (!URL.canParse(url)) return false;
  const protocol = new URL(url).protocol;
  return protocol === 'http:' || protocol === 'https:';
}

export const roles = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
export type Role = (typeof roles)[number];

export const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
export const imagePartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({
    url: z.string().refine(isAcceptedImageUrl, {
      error: 'must be a data URL "data:image/<type>;base64,<data>" or an http(s) URL',
    }),
    detail: z.enum(['auto', 'low', 'high']).optional(),
  }),
});
const dataUrlAnyType = /^data:[a-z0-9.+-]+\/[a-z0-9.+-]+(;[^;,]+)*;base64,[A-Za-z0-9+/]+={0,2}$/i;

/** A file (OpenAI's shape): its content as a base64 data URL (`file_data`, a PDF most often), or an uploaded `file_id`. */
export const filePartSchema = z.looseObject({
  type: z.literal('file'),
  file: z
    .looseObject({
      file_data: z
        .string()
        .regex(dataUrlAnyType, { error: 'must be a base64 data URL "data:<type>;base64,<data>"' })
        .optional(),
      file_id: z.string().min(1).optional(),
      filename: z.string().optional(),
    })
    .refine((file) => file.file_data !== undefined || file.file_id !== undefined, {
      error: 'needs file_data or file_id',
    }),
});
/** Audio (OpenAI's shape): base64 `data` in a `format` such as wav or mp3. */
export const audioPartSchema = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: z.string().min(1), format: z.string().min(1) }),
});
/** An assistant's refusal, as OpenAI returns it in earlier turns. */
export const refusalPartSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });
export const contentPartSchema = z.discriminatedUnion('type', [
  textPartSchema,
  imagePartSchema,
  filePartSchema,
  audioPartSchema,
  refusalPartSchema,
]);

/** The parts only a user message may carry: images, files and audio. */
const mediaPartTypes = new Set(['image_url', 'file', 'input_audio']);

export const toolCallSchema = z.looseObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

/** One item of `reasoning_details` (OpenRouter's convention); opaque fields are kept as they came. */
export const reasoningDetailSchema = z.looseObject({
  type: z.string(),
  format: z.string().optional(),
  index: z.number().optional(),
  id: z.string().nullish(),
  text: z.string().optional(),
  signature: z.string().nullish(),
  summary: z.string().optional(),
  data: z.string().optional(),
});

export const chatMessageSchema = z
  .looseObject({
    role: z.enum(roles),
    content: z
      .union([z.string(), z.array(contentPartSchema)], { error: 'must be a string or an array of content parts' })
      .nullish()
      .transform((content) => content ?? null),
    name: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
    tool_call_id: z.string().optional(),
    reasoning: z.string().nullish(),
    reasoning_details: z.array(reasoningDetailSchema).optional(),
  })
  .superRefine((message, context) => {
    const issue = (path: (string | number)[], text: string) =>
      context.addIssue({ code: 'custom', path, message: text, input: message });
    const { role, content } = message;
    const hasToolCalls = (message.tool_calls?.length ?? 0) > 0;
    if (content === null) {
      if (role !== 'assistant') issue(['content'], `is required when role is "${role}"`);
      else if (!hasToolCalls) issue(['content'], 'is required unless the assistant message has tool_calls');
    }
    if (role === 'tool' && !message.tool_call_id) issue(['tool_call_id'], 'is required when role is "tool"');
    if (message.tool_calls !== undefined && role !== 'assistant') {
      issue(['tool_calls'], 'is only allowed when role is "assistant"');
    }
    if (Array.isArray(content)) {
      content.forEach((part, index) => {
        if (mediaPartTypes.has(part.type) && role !== 'user') {
          issue(['content', index, 'type'], `must be "text" when role is "${role}"`);
        }
        if (part.type === 'refusal' && role !== 'assistant') {
          issue(['content', index, 'type'], `"refusal" is only allowed when role is "assistant"`);
        }
      });
    }
  });

export const functionToolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().regex(toolNamePattern, { error: 'must be 1 to 64 letters, digits, "_" or "-"' }),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

const namedFunctionSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1) }),
});

/** OpenAI's `allowed_tools`: the model may use only these of the declared tools (`required`: it must use one). */
export const allowedToolsChoiceSchema = z.looseObject({
  type: z.literal('allowed_tools'),
  allowed_tools: z.looseObject({ mode: z.enum(['auto', 'required']), tools: z.array(namedFunctionSchema).min(1) }),
});

export const toolChoiceSchema = z.union(
  [z.enum(['none', 'auto', 'required']), namedFunctionSchema, allowedToolsChoiceSchema],
  {
    error:
      'must be "none", "auto", "required", {"type": "function", "function": {"name": "<tool>"}} or {"type": "allowed_tools", …}',
  },
);

/** Every reasoning effort OpenAI and OpenRouter define. */
export const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type ReasoningEffort = (typeof reasoningEfforts)[number];

export const reasoningRequestSchema = z.looseObject({
  effort: z.enum(reasoningEfforts).optional(),
  max_tokens: z.int().positive().optional(),
  exclude: z.boolean().optional(),
  enabled: z.boolean().optional(),
});

const providerIds = z.array(z.string().min(1)).max(100);
/** USD per million tokens. */
const pricePerMillion = z.number().nonnegative();

/**
 * OpenRouter's provider routing preferences. The gateway acts on `require_parameters`, and applies the rest to a
 * model group's targets by their provider ids (decision 029); a plain OpenRouter model gets the object as sent.
 */
export const providerPreferencesSchema = z.looseObject({
  require_parameters: z.boolean().optional(),
  order: providerIds.optional(),
  only: providerIds.optional(),
  ignore: providerIds.optional(),
  allow_fallbacks: z.boolean().optional(),
  sort: z.enum(['price', 'latency', 'throughput']).optional(),
  max_price: z.looseObject({ prompt: pricePerMillion.optional(), completion: pricePerMillion.optional() }).optional(),
});

/**
 * A request body. `stream` defaults to true (the spec's default; `/api/v1` keeps it; `/v1` sets false before
 * parsing). `model` may be left out when `models` names the candidates: the first is the model. Fields not described
 * here are kept.
 */
export const chatRequestSchema = z
  .looseObject({
    model: z.string().min(1).optional(),
    models: z.array(z.string().min(1)).optional(),
    messages: z.array(chatMessageSchema).min(1),
    stream: z.boolean().default(true),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).optional(),
    tools: z.array(functionToolSchema).optional(),
    tool_choice: toolChoiceSchema.optional(),
    parallel_tool_calls: z.boolean().optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().min(0).max(1).optional(),
    max_tokens: z.int().positive().optional(),
    max_completion_tokens: z.int().positive().optional(),
    stop: z
      .union([z.string(), z.array(z.string()).max(4)], { error: 'must be a string or an array of at most 4 strings' })
      .optional(),
    seed: z.int().optional(),
    presence_penalty: z.number().min(-2).max(2).optional(),
    frequency_penalty: z.number().min(-2).max(2).optional(),
    response_format: z.looseObject({ type: z.enum(['text', 'json_object', 'json_schema']) }).optional(),
    reasoning: reasoningRequestSchema.optional(),
    reasoning_effort: z.enum(reasoningEfforts).optional(),
    user: z.string().optional(),
    // OpenAI's and OpenRouter's further parameters: validated where their type is known, forwarded as given.
    n: z.int().min(1).max(128).optional(),
    logprobs: z.boolean().optional(),
    top_logprobs: z.int().min(0).max(20).optional(),
    logit_bias: z.record(z.string(), z.number()).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    store: z.boolean().optional(),
    service_tier: z.string().optional(),
    verbosity: z.enum(['low', 'medium', 'high']).optional(),
    modalities: z.array(z.string()).optional(),
    audio: z.looseObject({}).optional(),
    prediction: z.looseObject({}).optional(),
    web_search_options: z.looseObject({}).optional(),
    prompt_cache_key: z.string().optional(),
    safety_identifier: z.string().optional(),
    top_k: z.int().min(0).optional(),
    min_p: z.number().min(0).max(1).optional(),
    top_a: z.number().min(0).max(1).optional(),
    repetition_penalty: z.number().gt(0).max(2).optional(),
    chat_template_kwargs: z.looseObject({}).optional(),
    provider: providerPreferencesSchema.optional(),
  })
  .superRefine((request, context) => {
    if (request.model === undefined && !request.models?.length) {
      context.addIssue({
        code: 'custom',
        path: ['model'],
        message: 'is required (or name the models in "models")',
        input: request,
      });
    }
    const declared = new Set((request.tools ?? []).map((tool) => tool.function.name));
    const requireDeclared = (name: string, path: (string | number)[]) => {
      if (declared.has(name)) return;
      context.addIssue({ code: 'custom', path, message: `"${name}" is not one of the declared tools`, input: name });
    };
    const choice = request.tool_choice;
    if (typeof choice === 'object' && choice.type === 'function')
      requireDeclared(choice.function.name, ['tool_choice', 'function', 'name']);
    if (typeof choice === 'object' && choice.type === 'allowed_tools') {
      choice.allowed_tools.tools.forEach((tool, index) =>
        requireDeclared(tool.function.name, ['tool_choice', 'allowed_tools', 'tools', index, 'function', 'name']),
      );
    }
  })
  // One spelling for what follows: the first of `models` as the model; `reasoning_effort` (the openai SDK's and the
  // AI SDK's field) as `reasoning.effort` unless `reasoning` says otherwise.
  .transform(({ model, reasoning, ...request }) => {
    const effort = request.reasoning_effort;
    return {
      ...request,
      model: model ?? request.models![0]!,
      ...(reasoning !== undefined ? { reasoning } : effort !== undefined ? { reasoning: { effort } } : {}),
    };
  });

export type TextPart = z.output<typeof textPartSchema>;
export type ImagePart = z.output<typeof imagePartSchema>;
export type FilePart = z.output<typeof filePartSchema>;
export type AudioPart = z.output<typeof audioPartSchema>;
export type RefusalPart = z.output<typeof refusalPartSchema>;
export type ContentPart = z.output<typeof contentPartSchema>;
export type ToolCall = z.output<typeof toolCallSchema>;
export type ReasoningDetail = z.output<typeof reasoningDetailSchema>;
export type ChatMessage = z.output<typeof chatMessageSchema>;
export type FunctionTool = z.output<typeof functionToolSchema>;
export type ToolChoice = z.output<typeof toolChoiceSchema>;
export type ReasoningRequest = z.output<typeof reasoningRequestSchema>;
export type ProviderPreferences = z.output<typeof providerPreferencesSchema>;
/** A validated chat request: `stream` is always set. */
export type ChatRequest = z.output<typeof chatRequestSchema>;

/**
 * What the gateway itself acts on: routing (`model`, `models`, `provider`), the conversation it translates
 * (`messages`), how it answers (`stream`, `stream_options`: usage is always asked of the upstream), and the reasoning
 * request (`reasoning`, `reasoning_effort`), which each provider kind spells its own way. Every other field of the
 * request is the upstream's business: an OpenAI-compatible upstream gets it as it came.
 */
export const gatewayConsumedFields = [
  'model',
  'models',
  'messages',
  'stream',
  'stream_options',
  'reasoning',
  'reasoning_effort',
  'provider',
] as const;

/** Fields only OpenRouter understands (routing preferences, plugins, its usage flag): forwarded to it alone. */
export const openRouterOnlyFields = ['provider', 'transforms', 'route', 'plugins', 'usage'] as const;

/** The fields of a request an OpenAI-compatible upstream gets as they came. */
export function forwardedFieldsOf(request: ChatRequest): string[] {
  return Object.keys(request).filter(
    (field) =>
      !(gatewayConsumedFields as readonly string[]).includes(field) &&
      (request as Record<string, unknown>)[field] !== undefined,
  );
}
