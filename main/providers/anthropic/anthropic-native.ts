// The Messages API passed through untranslated (NativeCall): the caller's body with the upstream's model name, the
// provider's key and the caller's protocol headers; a stream's events as they came, and an error Anthropic reports
// inside a 2xx answer (an `error` event, or an error object answered whole) as our (redacted) error.

import { ApiError } from '../../../shared/api/index.js';
import type { NativeAnswer, NativeCall, UpstreamTarget } from '../adapter.js';
import { malformedUpstream, parseEventJson } from '../http/upstream-errors.js';
import type { UpstreamHttp, UpstreamResponse } from '../http/upstream-http.js';
import { anthropicHeaders, anthropicUrl } from './anthropic-url.js';
import { mapAnthropicStreamError } from './map-anthropic-error.js';

/** The caller's protocol headers passed on untranslated: its API version (else ours) and its beta features. */
const nativeHeaders = ['anthropic-version', 'anthropic-beta'] as const;

/** The Messages API's operations a caller may ask for untranslated, and their paths under /v1. */
const nativePaths: Record<string, string> = { messages: 'messages', count_tokens: 'messages/count_tokens' };

/** A native stream's events as they came; an `error` event ends it as our (redacted) error. */
async function* nativeEvents(
  http: UpstreamHttp,
  response: UpstreamResponse,
  target: UpstreamTarget,
  signal: AbortSignal,
): AsyncGenerator<{ event?: string; data: string }, void, undefined> {
  for await (const event of http.sseEvents(response, target, signal)) {
    if (event.event === 'error') {
      const secrets = http.secretsOf(target);
      throw mapAnthropicStreamError(
        target.provider.id,
        parseEventJson(event.data, target.provider.id, secrets),
        secrets,
      );
    }
    yield { event: event.event, data: event.data };
  }
}

export async function anthropicNative(
  http: UpstreamHttp,
  call: NativeCall,
  target: UpstreamTarget,
  signal: AbortSignal,
): Promise<NativeAnswer> {
  const path = nativePaths[call.operation];
  if (!path) throw new ApiError(500, `The anthropic adapter has no native operation "${call.operation}".`);
  const headers = anthropicHeaders(target);
  for (const name of nativeHeaders) {
    const value = call.headers?.[name];
    if (value) headers[name] = value;
  }
  const response = await http.send({
    target,
    method: 'POST',
    url: anthropicUrl(target.provider.base_url, path),
    headers,
    body: { ...call.body, model: target.model },
    accept: call.stream ? 'text/event-stream' : 'application/json',
    signal,
  });
  if (call.stream) return { events: nativeEvents(http, response, target, signal) };
  const json = await http.readJson(response, target, signal);
  if ((json as { type?: unknown } | null)?.type === 'error') {
    throw mapAnthropicStreamError(target.provider.id, json, http.secretsOf(target));
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw malformedUpstream(target.provider.id, 'answered with something that is not a JSON object');
  }
  return { whole: json as Record<string, unknown> };
}
