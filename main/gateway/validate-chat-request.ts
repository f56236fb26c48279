// Strict validation of POST /chat/completions bodies (spec 2.1–2.5). Messages name the field, e.g.
// `messages[2].tool_call_id is required when role is "tool"`. Unknown top-level fields are tolerated (callers send
// vendor extras) but dropped: only what ChatRequest describes travels on. Messages and their parts keep extra
// fields (e.g. `cache_control`), since they are forwarded as given.

import { z } from 'zod';
import { ApiError, type ChatMessage, type ChatRequest } from '../../shared/api/index.js';
import { pathBeyondDepth } from './json-depth.js';

const roles = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
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

const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
const imagePartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({
    url: z.string().refine(isAcceptedImageUrl, {
      error: 'must be a data URL "data:image/<type>;base64,<data>" or an http(s) URL',
    }),
    detail: z.enum(['auto', 'low', 'high']).optional(),
  }),
});
const contentPartSchema = z.discriminatedUnion('type', [textPartSchema, imagePartSchema]);

const toolCallSchema = z.looseObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

const messageSchema = z
  .looseObject({
    role: z.enum(roles),
    content: z
      .union([z.string(), z.array(contentPartSchema)], { error: 'must be a string or an array of content parts' })
      .nullish(),
    name: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
    tool_call_id: z.string().optional(),
    reasoning: z.string().nullish(),
    reasoning_details: z.array(z.looseObject({ type: z.string() })).optional(),
  })
  .superRefine((message, context) => {
    const issue = (path: (string | number)[], text: string) =>
      context.addIssue({ code: 'custom', path, message: text, input: message });
    const { role, content } = message;
    const hasToolCalls = (message.tool_calls?.length ?? 0) > 0;
    if (content == null) {
      if (role !== 'assistant') issue(['content'], `is required when role is "${role}"`);
      else if (!hasToolCalls) issue(['content'], 'is required unless the assistant message has tool_calls');
    }
    if (role === 'tool' && !message.tool_call_id) issue(['tool_call_id'], 'is required when role is "tool"');
    if (message.tool_calls !== undefined && role !== 'assistant') {
      issue(['tool_calls'], 'is only allowed when role is "assistant"');
    }
    if (Array.isArray(content) && role !== 'user') {
      content.forEach((part, index) => {
        if (part.type !== 'text') issue(['content', index, 'type'], `must be "text" when role is "${role}"`);
      });
    }
  });

const toolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().regex(toolNamePattern, { error: 'must be 1 to 64 letters, digits, "_" or "-"' }),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

const toolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string().min(1) }) }),
  ],
  { error: 'must be "none", "auto", "required" or {"type": "function", "function": {"name": "<tool>"}}' },
);

const chatRequestSchema = z
  .looseObject({
    model: z.string().min(1),
    models: z.array(z.string().min(1)).optional(),
    messages: z.array(messageSchema).min(1),
    stream: z.boolean().optional(),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).optional(),
    tools: z.array(toolSchema).optional(),
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
    reasoning: z
      .looseObject({
        effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
        max_tokens: z.int().positive().optional(),
        exclude: z.boolean().optional(),
        enabled: z.boolean().optional(),
      })
      .optional(),
    user: z.string().optional(),
  })
  .superRefine((request, context) => {
    const choice = request.tool_choice;
    if (typeof choice === 'object') {
      const declared = new Set((request.tools ?? []).map((tool) => tool.function.name));
      if (!declared.has(choice.function.name)) {
        context.addIssue({
          code: 'custom',
          path: ['tool_choice', 'function', 'name'],
          message: `"${choice.function.name}" is not one of the declared tools`,
          input: choice,
        });
      }
    }
  });

const expectedNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  record: 'an object',
};

function oneOf(values: readonly unknown[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  return quoted.length <= 2 ? quoted.join(' or ') : `one of ${quoted.join(', ')}`;
}

function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${expectedNames[issue.expected] ?? issue.expected}`;
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'array') return minimum === 1 ? 'must not be empty' : `must have at least ${minimum} items`;
      if (issue.origin === 'string') return 'must not be empty';
      return issue.origin === 'number' && minimum === 0 && !issue.inclusive
        ? 'must be positive'
        : `must be ${issue.inclusive ? '>=' : '>'} ${minimum}`;
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'array') return `must have at most ${maximum} items`;
      if (issue.origin === 'string') return `must be at most ${maximum} characters`;
      return `must be ${issue.inclusive ? '<=' : '<'} ${maximum}`;
    }
    case 'invalid_value':
      return `must be ${oneOf(issue.values)}`;
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      return options ? `must be ${oneOf(options)}` : 'is invalid';
    }
    default:
      return undefined;
  }
}

interface ReportedIssue {
  path: PropertyKey[];
  message: string;
}

/** A union's own message when every branch failed at its root; otherwise the branch that got furthest. */
function mostSpecific(issue: z.core.$ZodIssue): ReportedIssue {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    let best: ReportedIssue | null = null;
    for (const branch of issue.errors) {
      const candidates = branch.map(mostSpecific);
      const depth = Math.max(...candidates.map((candidate) => candidate.path.length));
      if (depth > 0 && (!best || depth > best.path.length)) best = candidates[0]!;
    }
    if (best) return { path: [...issue.path, ...best.path], message: best.message };
  }
  return { path: issue.path, message: issue.message };
}

export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** Callers often send `null` for "not set" (OpenAI accepts that); treat it so except for the required fields. */
function withoutNulls(body: Record<string, unknown>): Record<string, unknown> {
  const cleaned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value !== null || key === 'model' || key === 'messages') cleaned[key] = value;
  }
  return cleaned;
}

/**
 * Deeper than any real request (a tool's JSON schema nests a few levels per property), shallow enough for every
 * recursive step after validation.
 */
export const maxRequestDepth = 64;

/** Validates a request body; throws ApiError(400) naming the offending fields. */
export function parseChatRequest(body: unknown): ChatRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object.');
  }
  const tooDeep = pathBeyondDepth(body, maxRequestDepth);
  if (tooDeep) {
    const field = formatPath(tooDeep.slice(0, 4)) + (tooDeep.length > 4 ? '…' : '');
    throw new ApiError(400, `Invalid request: ${field} is nested more than ${maxRequestDepth} levels deep.`);
  }
  const result = chatRequestSchema.safeParse(withoutNulls(body as Record<string, unknown>), { error: describeIssue });
  if (!result.success) {
    const messages = [
      ...new Set(
        result.error.issues.map(mostSpecific).map(({ path, message }) => `${formatPath(path) || 'body'} ${message}`),
      ),
    ];
    throw new ApiError(400, `Invalid request: ${messages.slice(0, 3).join('; ')}.`);
  }
  const parsed = result.data;
  const request: ChatRequest = {
    model: parsed.model,
    messages: parsed.messages as ChatMessage[],
    stream: parsed.stream ?? true,
  };
  const optional = [
    'models',
    'stream_options',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'temperature',
    'top_p',
    'max_tokens',
    'max_completion_tokens',
    'stop',
    'seed',
    'presence_penalty',
    'frequency_penalty',
    'response_format',
    'reasoning',
    'user',
  ] as const;
  const target = request as unknown as Record<string, unknown>;
  for (const key of optional) {
    if (parsed[key] !== undefined) target[key] = parsed[key];
  }
  return request;
}
