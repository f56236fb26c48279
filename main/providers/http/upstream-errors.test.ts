import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApiError } from '../../../shared/api/index.js';
import { thrown } from '../test-support.js';
import { redactorFor } from './redact.js';
import { mapTransportError, mapUpstreamError, mapUpstreamStatus, parseAnswer } from './upstream-errors.js';

const key = 'sk-upstream-secret-123456';

function upstream(status: number, body: string, headers: Record<string, string> = {}): ApiError {
  return mapUpstreamError({ providerId: 'acme', status, headers, body, secrets: redactorFor(key) });
}

const transport = {
  providerId: 'acme',
  baseUrl: 'https://user:pw@api.acme.test/v1?token=t',
  headersTimeoutMs: 300_000,
};

function codeError(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}

describe('mapUpstreamStatus', () => {
  it.each([
    [400, 400],
    [422, 400],
    [401, 502],
    [403, 502],
    [402, 502],
    [404, 404],
    [408, 408],
    [413, 413],
    [429, 429],
    [500, 502],
    [502, 502],
    [503, 503],
    [529, 503],
    [504, 502],
    [418, 502],
  ])('upstream %i → %i', (from, to) => {
    expect(mapUpstreamStatus(from)).toBe(to);
  });
});

describe('mapUpstreamError', () => {
  it('keeps the upstream message and the parsed body for a 400', () => {
    const error = upstream(400, '{"error":{"message":"max_tokens is too large","type":"invalid_request_error"}}');
    expect(error.status).toBe(400);
    expect(error.message).toBe('Provider "acme" rejected the request (upstream 400): max_tokens is too large');
    expect(error.metadata).toEqual({
      provider_name: 'acme',
      raw: { error: { message: 'max_tokens is too large', type: 'invalid_request_error' } },
    });
  });

  it('never turns an upstream auth failure into a 401, and scrubs an echoed key', () => {
    const error = upstream(401, `{"error":{"message":"Incorrect API key provided: ${key}."}}`);
    expect(error.status).toBe(502);
    expect(error.message).toBe('Provider "acme" rejected its API key (upstream 401).');
    expect(error.metadata.provider_name).toBe('acme');
    expect(JSON.stringify(error.toBody())).not.toContain(key);
    expect(JSON.stringify(error.metadata.raw)).toContain('[redacted]');
    expect(upstream(403, 'forbidden').status).toBe(502);
  });

  it('keeps Retry-After on a 429', () => {
    const error = upstream(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '7' });
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ 'retry-after': '7' });
  });

  it('maps 5xx to 502 or 503 and keeps a non-JSON body as a truncated string', () => {
    const error = upstream(500, `<html>${'x'.repeat(5000)}</html>`);
    expect(error.status).toBe(502);
    expect(typeof error.metadata.raw).toBe('string');
    expect((error.metadata.raw as string).length).toBeLessThan(2100);
    expect(upstream(503, '').status).toBe(503);
    expect(upstream(529, '{"type":"error","error":{"type":"overloaded_error"}}').status).toBe(503);
    expect(upstream(404, '{"error":"model not found"}').message).toContain('model not found');
  });
});

describe('mapTransportError', () => {
  it('names the provider and the code of a refused connection, without credentials of the URL', () => {
    const error = mapTransportError(codeError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:443'), transport);
    expect(error.status).toBe(502);
    expect(error.message).toBe('Could not reach provider "acme" at https://api.acme.test/v1: ECONNREFUSED');
    expect(mapTransportError(codeError('ENOTFOUND'), transport).status).toBe(502);
  });

  it('maps our headers timeout to a 504 that is never retried, and resets to 502', () => {
    expect(mapTransportError(codeError('UND_ERR_HEADERS_TIMEOUT'), transport)).toMatchObject({
      status: 504,
      message: 'Provider "acme" did not answer within 300 s.',
      retryable: false,
    });
    expect(mapTransportError(codeError('UND_ERR_SOCKET', 'other side closed'), transport)).toMatchObject({
      status: 502,
      message: 'The connection to provider "acme" was lost: UND_ERR_SOCKET',
    });
  });

  it('finds the code on a cause and never repeats an unknown error message', () => {
    const error = mapTransportError(
      new Error('fetch failed with secret detail', { cause: codeError('ECONNRESET') }),
      transport,
    );
    expect(error.message).toBe('The connection to provider "acme" was lost: ECONNRESET');
    expect(mapTransportError(new TypeError('secret detail'), transport).message).not.toContain('secret');
  });
});

describe('parseAnswer', () => {
  const list = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });
  const what = 'answered GET /models with an unexpected shape';

  it('gives the answer as its schema reads it, unknown fields kept', () => {
    expect(parseAnswer(list, { data: [{ id: 'm', extra: 1 }] }, 'acme', what)).toEqual({
      data: [{ id: 'm', extra: 1 }],
    });
  });

  it('answers a 502 that is never retried, naming the provider and what it answered, for another shape', () => {
    expect(thrown(() => parseAnswer(list, { data: 'nope' }, 'acme', what))).toMatchObject({
      status: 502,
      retryable: false,
      message: 'Provider "acme" answered GET /models with an unexpected shape.',
    });
  });
});
