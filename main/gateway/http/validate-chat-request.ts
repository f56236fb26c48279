// Strict validation of POST /chat/completions bodies against the one schema of a request (shared/api/chat-request.ts),
// with messages that name the field, e.g. `messages[2].tool_call_id is required when role is "tool"`.

import type { z } from 'zod';
import { ApiError, chatRequestSchema, type ChatRequest } from '../../../shared/api/index.js';
import { pathBeyondDepth } from './json-depth.js';
import { notPlain, plainParser } from './plain-request.js';

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
function withoutNulls(body: Record<string, unknown>, required: readonly string[]): Record<string, unknown> {
  const cleaned: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value !== null || required.includes(key)) cleaned[key] = value;
  }
  return cleaned;
}

/**
 * Deeper than any real request (a tool's JSON schema nests a few levels per property), shallow enough for every
 * recursive step after validation.
 */
export const maxRequestDepth = 64;

/** The fields of a chat request where `null` is not "not set". */
export const chatRequiredFields = ['model', 'messages'] as const;

export interface ParseOptions {
  /** What a request without `stream` gets: true on /api/v1 (the interface's default), false on /v1 (OpenAI's). */
  streamByDefault?: boolean;
}

/**
 * Validates a request body against `schema`; throws ApiError(400) naming the offending fields. Every body is a JSON
 * object, bounded in depth, and `null` stands for "not set" except in `required` fields. `plain`, made from the same
 * schema by plainParser, answers for the bodies it can vouch for; zod parses the others.
 */
export function parseRequestBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  defaults: Record<string, unknown> = {},
  required: readonly string[] = [],
  plain?: (given: unknown) => z.output<S> | typeof notPlain,
): z.output<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object.');
  }
  const given = withoutNulls(body as Record<string, unknown>, required);
  for (const field of Object.keys(defaults)) if (given[field] === undefined) given[field] = defaults[field];
  // What plain accepts is within maxRequestDepth: the depth check below could not have refused it.
  const parsed = plain ? plain(given) : notPlain;
  if (parsed !== notPlain) return parsed;
  const tooDeep = pathBeyondDepth(body, maxRequestDepth);
  if (tooDeep) {
    const field = formatPath(tooDeep.slice(0, 4)) + (tooDeep.length > 4 ? '…' : '');
    throw new ApiError(400, `Invalid request: ${field} is nested more than ${maxRequestDepth} levels deep.`);
  }
  const result = schema.safeParse(given, { error: describeIssue });
  if (!result.success) {
    const messages = [
      ...new Set(
        result.error.issues.map(mostSpecific).map(({ path, message }) => `${formatPath(path) || 'body'} ${message}`),
      ),
    ];
    throw new ApiError(400, `Invalid request: ${messages.slice(0, 3).join('; ')}.`);
  }
  return result.data as z.output<S>;
}

/** The chat requests most callers send, parsed as zod would without zod's walk of every field of the schema. */
const plainChatRequest = plainParser(chatRequestSchema, maxRequestDepth);

/** Validates a chat request body; throws ApiError(400) naming the offending fields. */
export function parseChatRequest(body: unknown, options: ParseOptions = {}): ChatRequest {
  const defaults = options.streamByDefault === undefined ? {} : { stream: options.streamByDefault };
  return parseRequestBody(chatRequestSchema, body, defaults, chatRequiredFields, plainChatRequest);
}
