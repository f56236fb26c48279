import { describe, expect, it } from 'vitest';
import { ApiError, type ProviderInfo } from '../../../../shared/api/index.js';
import { providerFixture } from '../../../../test/support/recording-server.js';
import type { NativeReading } from '../../pipeline/native-relay.js';
import { GeneratedText } from '../../pipeline/usage-estimate.js';
import { geminiNativeCall, geminiNativeProtocol } from './gemini-native.js';

const provider: ProviderInfo = {
  id: 'google',
  kind: 'google',
  base_url: 'http://x',
  has_api_key: true,
  created_at: '',
};

function events(name: string): Record<string, unknown>[] {
  return providerFixture('google', name)
    .split(/\r?\n\r?\n/)
    .filter((event) => event.startsWith('data:'))
    .map((event) => JSON.parse(event.slice('data:'.length)) as Record<string, unknown>);
}

describe('geminiNativeProtocol', () => {
  it('reads the last usage, the finish (tool calls when the answer called a function) and what was generated', () => {
    const protocol = geminiNativeProtocol();
    const reading: NativeReading = { usage: null, finishReason: null, generated: new GeneratedText() };
    for (const payload of events('gemini-thinking-tool-calls.sse.txt')) protocol.read(payload, reading);
    expect(reading.usage).toMatchObject({
      prompt_tokens: 96,
      completion_tokens: 38 + 178,
      completion_tokens_details: { reasoning_tokens: 178 },
    });
    expect(reading.finishReason).toBe('tool_calls');
    expect(reading.generated.pieces.join('')).toContain('get_weather');
  });

  it('reads a text answer as stop', () => {
    const protocol = geminiNativeProtocol();
    const reading: NativeReading = { usage: null, finishReason: null, generated: new GeneratedText() };
    for (const payload of events('gemini-text.sse.txt')) protocol.read(payload, reading);
    expect(reading.finishReason).toBe('stop');
    expect(reading.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('relabels modelVersion, frames events as Google does, and fails with Google’s error object', () => {
    const protocol = geminiNativeProtocol();
    const payload = { candidates: [], modelVersion: 'gemini-2.5-pro', responseId: 'r' };
    expect(protocol.relabel(payload, 'google/gemini-2.5-pro')).toEqual({
      ...payload,
      modelVersion: 'google/gemini-2.5-pro',
    });
    expect(protocol.relabel({ totalTokens: 3 }, 'google/x')).toEqual({ totalTokens: 3 });
    expect(protocol.encode({ a: 1 }, undefined)).toBe('data: {"a":1}\r\n\r\n');
    expect(protocol.errorEvent(new ApiError(429, 'slow down'))).toBe(
      'data: {"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}\r\n\r\n',
    );
    expect(protocol.end()).toBe('');
  });
});

describe('geminiNativeCall', () => {
  const target = { provider, apiKey: 'k', model: 'gemini-2.5-pro' };

  it('passes the body on as it came, streamed for streamGenerateContent', () => {
    const body = { contents: [{ parts: [{ text: 'hi', thoughtSignature: 'abc' }] }], tools: [{ googleSearch: {} }] };
    expect(geminiNativeCall('streamGenerateContent', body)(target)).toEqual({
      operation: 'streamGenerateContent',
      body,
      stream: true,
    });
    expect(geminiNativeCall('generateContent', body)(target).stream).toBe(false);
  });

  it('names the upstream’s model in a countTokens generateContentRequest', () => {
    const body = { generateContentRequest: { model: 'models/google/gemini-2.5-pro', contents: [] } };
    expect(geminiNativeCall('countTokens', body)(target).body).toEqual({
      generateContentRequest: { model: 'models/gemini-2.5-pro', contents: [] },
    });
  });
});
