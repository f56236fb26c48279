// Tool-call arguments: a JSON string in our API (spec 2.5), an object for Anthropic (`input`) and Gemini (`args`).

import { ApiError } from '../../../shared/api/index.js';

/**
 * The arguments string of an assistant tool call as an object. Empty means `{}` (a call without parameters);
 * anything else must be a JSON object, or the caller gets a 400 naming `where` (`messages[3].tool_calls[0]…`).
 */
export function parseToolArguments(text: string, where: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, `${where} is not valid JSON: ${JSON.stringify(text.slice(0, 80))}.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(
      400,
      `${where} must be a JSON object, not ${Array.isArray(value) ? 'an array' : String(value)}.`,
    );
  }
  return value as Record<string, unknown>;
}
