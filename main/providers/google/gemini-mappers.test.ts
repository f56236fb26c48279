import { describe, expect, it } from 'vitest';
import { redactorFor } from '../http/redact.js';
import { mapUpstreamError } from '../http/upstream-errors.js';
import { fixture, usageOf } from '../test-support.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import { geminiModelListSchema } from './gemini-api.js';
import { convertGeminiModels } from './gemini-models.js';
import { geminiModelPath, geminiUrl } from './gemini-url.js';
import { mapGeminiError } from './map-gemini-error.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['BLOCKLIST', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['SPII', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'error'],
    ['OTHER', false, 'stop'],
    ['FINISH_REASON_UNSPECIFIED', true, 'tool_calls'],
  ] as const)('%s (had calls: %s) → %s', (raw, hadCalls, ours) => {
    expect(mapGeminiFinishReason(raw, hadCalls)).toBe(ours);
  });
});

describe('convertGeminiUsage', () => {
  it('counts thoughts in the completion and as reasoning; cached tokens are part of the prompt', () => {
    expect(
      convertGeminiUsage({
        promptTokenCount: 1000,
        cachedContentTokenCount: 800,
        candidatesTokenCount: 20,
        thoughtsTokenCount: 30,
        totalTokenCount: 1050,
      }),
    ).toEqual(usageOf(1000, 50, { cached: 800, reasoning: 30 }));
  });
});

describe('Gemini HTTP errors', () => {
  const key = 'AIzaSy-secret-key-123';
  const body = (code: number, status: string, message = 'details') =>
    JSON.stringify({ error: { code, message, status } });
  const map = (status: number, text: string, headers: Record<string, string> = {}) =>
    mapUpstreamError({ providerId: 'gemini', status, headers, body: text, secrets: redactorFor(key) });

  it.each([
    [400, 'INVALID_ARGUMENT', 400],
    [403, 'PERMISSION_DENIED', 502],
    [404, 'NOT_FOUND', 404],
    [429, 'RESOURCE_EXHAUSTED', 429],
    [500, 'INTERNAL', 502],
    [503, 'UNAVAILABLE', 503],
  ])('upstream %i %s → %i, with provider_name and the raw body', (status, name, ours) => {
    const error = map(status, body(status, name));
    expect(error.status).toBe(ours);
    expect(error.metadata).toEqual({
      provider_name: 'gemini',
      raw: { error: { code: status, message: 'details', status: name } },
    });
  });

  it('reads the message of a body wrapped in an array, and never quotes the key of a 400', () => {
    const error = map(
      400,
      `[{"error":{"code":400,"message":"API key not valid: ${key}","status":"INVALID_ARGUMENT"}}]`,
    );
    expect(error.message).toBe('Provider "gemini" rejected the request (upstream 400): API key not valid: [redacted]');
    expect(map(429, body(429, 'RESOURCE_EXHAUSTED'), { 'retry-after': '30' }).headers).toEqual({ 'retry-after': '30' });
  });
});

describe('geminiUrl', () => {
  it('builds the streaming URL with alt=sse', () => {
    expect(
      geminiUrl(
        'https://generativelanguage.googleapis.com',
        `${geminiModelPath('gemini-2.5-flash')}:streamGenerateContent`,
        {
          alt: 'sse',
        },
      ),
    ).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(geminiModelPath('tunedModels/my-model')).toBe('tunedModels/my-model');
  });
});

describe('Gemini models', () => {
  it('converts GET /v1beta/models: strips models/, keeps chat and embedding models, embeddings as their output', () => {
    const list = geminiModelListSchema.parse(JSON.parse(fixture('google', 'gemini-models.json')));
    expect(convertGeminiModels(list)).toEqual([
      {
        id: 'gemini-2.5-flash',
        name: 'Gemini 2.5 Flash',
        owned_by: 'google',
        context_length: 1048576,
        architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
      },
      {
        id: 'gemini-1.0-pro',
        name: 'Gemini 1.0 Pro',
        owned_by: 'google',
        context_length: 30720,
        architecture: { input_modalities: ['text'], output_modalities: ['text'] },
      },
      {
        id: 'text-embedding-004',
        name: 'Text Embedding 004',
        owned_by: 'google',
        context_length: 2048,
        architecture: { input_modalities: ['text'], output_modalities: ['embeddings'] },
      },
    ]);
  });
});

describe('mapGeminiError', () => {
  const key = 'AIzaSy-secret-key-123';
  it('treats a 400 API_KEY_INVALID as the provider rejecting its key (502), never quoting it', () => {
    const error = mapGeminiError({
      providerId: 'gemini',
      status: 400,
      headers: {},
      secrets: redactorFor(key),
      body: JSON.stringify({
        error: {
          code: 400,
          message: `API key not valid. Please pass a valid API key. ${key}`,
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
        },
      }),
    });
    expect(error.status).toBe(502);
    expect(error.message).toBe('Provider "gemini" rejected its API key (upstream 400).');
    expect(JSON.stringify(error.toBody())).not.toContain(key);
  });

  it('turns RetryInfo of a 429 into Retry-After, and keeps a real header', () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        message: 'You exceeded your current quota.',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '16.5s' }],
      },
    });
    const map = (headers: Record<string, string>) =>
      mapGeminiError({ providerId: 'gemini', status: 429, headers, secrets: redactorFor(), body });
    expect(map({}).headers).toEqual({ 'retry-after': '17' });
    expect(map({ 'retry-after': '3' }).headers).toEqual({ 'retry-after': '3' });
    expect(
      mapGeminiError({ providerId: 'gemini', status: 400, headers: {}, secrets: redactorFor(), body: 'x' }).status,
    ).toBe(400);
  });
});
