// Shared by the provider tests: the recorded fixtures, a body in pieces through the real SSE framing, what a decoded
// stream carried, the ApiError a call threw, the usage the gateway reports, and a question about an image.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import {
  ApiError,
  type ChatMessage,
  type ReasoningDetail,
  type ToolCallDelta,
  type Usage,
} from '../../shared/api/index.js';
import type { StreamPart } from './adapter.js';
import { decodeSseEvents } from './http/upstream-http.js';

/** The text of a recorded fixture in `main/providers/<folder>/__fixtures__/`. */
export function fixture(folder: 'anthropic' | 'google' | 'openai', name: string): string {
  return readFileSync(path.join(import.meta.dirname, folder, '__fixtures__', name), 'utf8');
}

/** The text in pieces of `size` characters (1 splits inside every line and inside multi-byte emoji pairs). */
async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}

/** The SSE events of `text` delivered in pieces of `size`, framed as the adapters frame a body. */
export function sseEvents(text: string, providerId: string, size = text.length) {
  return decodeSseEvents(pieces(text, size), providerId);
}

/** The ApiError `run` throws; the test fails when it throws something else or nothing. */
export function thrown(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
}

/** The ApiError `run` rejects with; the test fails when it rejects with something else or resolves. */
export async function rejection(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
}

/** Decoding `body` in pieces of each of `sizes` characters gives the parts that decoding it whole gives. */
export async function expectSplitsAgree(
  decode: (body: string, size: number) => Promise<StreamPart[]>,
  body: string,
  sizes: number[],
): Promise<void> {
  const whole = await decode(body, body.length);
  for (const size of sizes) expect(await decode(body, size)).toEqual(whole);
}

/**
 * What the deltas of a decoded stream carried: the content and the reasoning text joined, the tool-call fragments
 * and the reasoning details in order, and the arguments of each call.
 */
export function streamed(parts: StreamPart[]) {
  const deltas = parts.flatMap((part) => (part.type === 'delta' ? [part.delta] : []));
  const toolCalls = deltas.flatMap((delta): ToolCallDelta[] => delta.tool_calls ?? []);
  return {
    deltas,
    content: deltas.map((delta) => delta.content ?? '').join(''),
    reasoning: deltas.map((delta) => delta.reasoning ?? '').join(''),
    toolCalls,
    details: deltas.flatMap((delta): ReasoningDetail[] => delta.reasoning_details ?? []),
    /** The arguments of the tool call numbered `index`, its fragments joined and parsed. */
    argumentsOf: (index: number): unknown =>
      JSON.parse(
        toolCalls
          .filter((call) => call.index === index)
          .map((call) => call.function?.arguments ?? '')
          .join(''),
      ),
  };
}

/** A stream that fails part-way: what it carried before the failure (see streamed), and the ApiError. */
export async function failedStream(
  decodeError: (text: string, seen: StreamPart[]) => Promise<ApiError>,
  text: string,
): Promise<{ before: ReturnType<typeof streamed>; error: ApiError }> {
  const seen: StreamPart[] = [];
  const error = await decodeError(text, seen);
  return { before: streamed(seen), error };
}

/**
 * The usage of `prompt` and `completion` tokens, the total their sum, with the details objects that are given: a
 * detail names where it goes (cached and cache writes in the prompt, reasoning in the completion).
 */
export function usageOf(
  prompt: number,
  completion: number,
  details: { cached?: number; cacheWrite?: number; reasoning?: number } = {},
): Usage {
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (details.cached !== undefined || details.cacheWrite !== undefined) {
    usage.prompt_tokens_details = {
      ...(details.cached !== undefined ? { cached_tokens: details.cached } : {}),
      ...(details.cacheWrite !== undefined ? { cache_write_tokens: details.cacheWrite } : {}),
    };
  }
  if (details.reasoning !== undefined) usage.completion_tokens_details = { reasoning_tokens: details.reasoning };
  return usage;
}

/** A 1×1 PNG, for image parts. */
export const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A user message of the text "What is this?" and then an image part for each of `urls`. */
export function imageQuestion(...urls: string[]): ChatMessage[] {
  const images = urls.map((url) => ({ type: 'image_url' as const, image_url: { url } }));
  return [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, ...images] }];
}
