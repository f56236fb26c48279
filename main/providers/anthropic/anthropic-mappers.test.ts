import { describe, expect, it } from 'vitest';
import { redactorFor } from '../http/redact.js';
import { mapUpstreamError } from '../http/upstream-errors.js';
import { fixture, usageOf } from '../test-support.js';
import { anthropicModelListSchema, anthropicUsageSchema } from './anthropic-api.js';
import { convertAnthropicModels } from './anthropic-models.js';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
import { mapAnthropicTemperature } from './map-anthropic-temperature.js';

describe('mapAnthropicFinishReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['tool_use', 'tool_calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'content_filter'],
    [null, 'stop'],
    ['something_new', 'stop'],
  ])('%s → %s', (raw, ours) => {
    expect(mapAnthropicFinishReason(raw)).toBe(ours);
  });
});

describe('convertAnthropicUsage', () => {
  it('counts cache reads and writes in the prompt and reports them separately', () => {
    expect(
      convertAnthropicUsage({
        input_tokens: 10,
        cache_read_input_tokens: 300,
        cache_creation_input_tokens: 50,
        output_tokens: 7,
      }),
    ).toEqual(usageOf(360, 7, { cached: 300, cacheWrite: 50 }));
    expect(convertAnthropicUsage({})).toEqual(usageOf(0, 0, { cached: 0, cacheWrite: 0 }));
  });

  it('carries the web searches Anthropic ran, which are billed per search', () => {
    // The usage of a recorded web-search answer (vercel/ai's anthropic-web-search-tool.1.json).
    const recorded = anthropicUsageSchema.parse({
      input_tokens: 27118,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 600,
      service_tier: 'standard',
      server_tool_use: { web_search_requests: 2, web_fetch_requests: 0 },
    });
    expect(convertAnthropicUsage(recorded)).toMatchObject({ prompt_tokens: 27118, completion_tokens: 600 });
    expect(convertAnthropicUsage(recorded).server_tool_use).toEqual({ web_search_requests: 2 });
    expect(convertAnthropicUsage({ input_tokens: 1 }).server_tool_use).toBeUndefined();
  });
});

describe('mapAnthropicTemperature', () => {
  it('clamps to 0–1', () => {
    expect([0, 0.3, 1, 1.2, 2].map(mapAnthropicTemperature)).toEqual([0, 0.3, 1, 1, 1]);
  });
});

describe('Anthropic HTTP errors', () => {
  const key = 'sk-ant-api03-secret-key';
  const body = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message } });
  const map = (status: number, text: string, headers: Record<string, string> = {}) =>
    mapUpstreamError({ providerId: 'claude', status, headers, body: text, secrets: redactorFor(key) });

  it.each([
    [400, 'invalid_request_error', 400],
    [401, 'authentication_error', 502],
    [403, 'permission_error', 502],
    [404, 'not_found_error', 404],
    [413, 'request_too_large', 413],
    [429, 'rate_limit_error', 429],
    [500, 'api_error', 502],
    [529, 'overloaded_error', 503],
  ])('upstream %i %s → %i, with provider_name and the raw body', (status, type, ours) => {
    const error = map(status, body(type, 'details'));
    expect(error.status).toBe(ours);
    expect(error.metadata).toEqual({
      provider_name: 'claude',
      raw: { type: 'error', error: { type, message: 'details' } },
    });
  });

  it('keeps the message of a 400, hides that of a 401, and keeps Retry-After on a 429', () => {
    expect(map(400, body('invalid_request_error', 'max_tokens: Field required')).message).toBe(
      'Provider "claude" rejected the request (upstream 400): max_tokens: Field required',
    );
    const auth = map(401, body('authentication_error', `invalid x-api-key ${key}`));
    expect(auth.message).toBe('Provider "claude" rejected its API key (upstream 401).');
    expect(JSON.stringify(auth.toBody())).not.toContain(key);
    expect(map(429, body('rate_limit_error', 'slow down'), { 'retry-after': '12' }).headers).toEqual({
      'retry-after': '12',
    });
  });
});

describe('Anthropic models', () => {
  it('converts GET /v1/models with modalities from the capability table', () => {
    const list = anthropicModelListSchema.parse(JSON.parse(fixture('anthropic', 'anthropic-models.json')));
    expect(convertAnthropicModels(list)).toEqual([
      {
        id: 'claude-sonnet-4-20250514',
        name: 'Claude Sonnet 4',
        owned_by: 'anthropic',
        created: 1747872000,
        architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
      },
      {
        id: 'claude-2.1',
        name: 'Claude 2.1',
        owned_by: 'anthropic',
        created: 1700524800,
        architecture: { input_modalities: ['text'], output_modalities: ['text'] },
      },
    ]);
  });
});
