import { describe, expect, it } from 'vitest';
import { redactorFor } from './redact.js';
import { malformedUpstream, mapUpstreamError, mapUpstreamErrorPayload, rawUpstreamBody } from './upstream-errors.js';

const secret = 'sk-up/slash+key-0123456789abcdefXYZ';
const gatewayKey = 'sk-sy-v1-abc123-callerSecretPart0123456789';
const secrets = redactorFor(secret, gatewayKey);

/** True when any 6 consecutive characters of a secret (after its 3-character "sk-" prefix) appear in `text`. */
function leaks(text: string, key = secret): boolean {
  for (let start = 3; start + 6 <= key.length; start += 1) if (text.includes(key.slice(start, start + 6))) return true;
  return false;
}

function unicodeEscaped(text: string): string {
  return [...text].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

describe('SecretRedactor', () => {
  it('replaces a secret spelled plainly, JSON-escaped in every way, or percent-encoded', () => {
    const spellings = [
      secret,
      secret.replaceAll('/', '\\/'),
      unicodeEscaped(secret),
      unicodeEscaped(secret).toUpperCase().replaceAll('\\U', '\\u'),
      // a mix: some characters escaped, some not
      [...secret].map((character, index) => (index % 2 ? unicodeEscaped(character) : character)).join(''),
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    ];
    for (const spelling of spellings) {
      const redacted = secrets.text(`before ${spelling} after`);
      expect(redacted, spelling).toBe('before [redacted] after');
    }
  });

  it('scrubs every string of a decoded value, keys included, however deep', () => {
    let deep: unknown = { leaf: `Bearer ${secret}` };
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const value = { error: { message: `key ${secret}`, [secret]: 1, list: [gatewayKey, 2, null, true] }, deep };
    const redacted = secrets.value(value) as { error: unknown; deep: unknown };
    expect(JSON.stringify(redacted.error)).toBe(
      '{"message":"key [redacted]","[redacted]":1,"list":["[redacted]",2,null,true]}',
    );
    let leaf = redacted.deep;
    while (Array.isArray(leaf)) leaf = leaf[0];
    expect(leaf).toEqual({ leaf: 'Bearer [redacted]' });
  });

  it('leaves text alone when there is no secret, or only one too short to be told from ordinary words', () => {
    expect(redactorFor(null).text(`x ${secret}`)).toBe(`x ${secret}`);
    expect(redactorFor('ollama').text('model ollama/llama3')).toBe('model ollama/llama3');
  });

  it('replaces the start of a secret at the end of a text that a reader cut short, escapes cut midway included', () => {
    for (let length = 1; length < secret.length; length += 1) {
      const text = `prefix ${secret.slice(0, length)}`;
      expect(leaks(secrets.text(text, { cut: true }))).toBe(false);
      expect(secrets.text(text, { cut: true })).toBe('prefix [redacted]');
      const escaped = `prefix ${unicodeEscaped(secret).slice(0, length * 3)}`;
      expect(secrets.text(escaped, { cut: true })).toMatch(/^prefix \[redacted\]$/);
    }
  });
});

describe('redaction happens before any truncation', () => {
  it('never leaves part of a key in metadata.raw of a malformed event, wherever the 500-character cut falls', () => {
    for (let offset = 480; offset <= 505; offset += 1) {
      const raw = `${'x'.repeat(offset)}${secret} and more text after it`;
      const error = malformedUpstream('up', 'sent garbage', raw, secrets);
      expect(leaks(JSON.stringify(error.toBody())), `offset ${offset}`).toBe(false);
    }
  });

  it('never leaves part of a key in a non-JSON error body, wherever the 2,000-character cut falls', () => {
    for (let offset = 1_960; offset <= 2_005; offset += 1) {
      const body = `<html>${'x'.repeat(offset - 6)}${secret}</html>`;
      const raw = rawUpstreamBody(body, secrets) as string;
      expect(leaks(raw), `offset ${offset}`).toBe(false);
    }
  });

  it('never leaves part of a key in the 300-character message, wherever its cut falls', () => {
    for (let offset = 270; offset <= 305; offset += 1) {
      const body = JSON.stringify({ error: { message: `${'m'.repeat(offset)}${secret} tail` } });
      const error = mapUpstreamError({ providerId: 'up', status: 400, headers: {}, body, secrets });
      expect(leaks(error.message), `offset ${offset}`).toBe(false);
      expect(leaks(JSON.stringify(error.toBody())), `offset ${offset}`).toBe(false);
    }
  });

  it('never leaves part of a key at the end of a body the reader cut at its limit', () => {
    for (let length = 1; length < secret.length; length += 1) {
      const body = `{"error":{"message":"Incorrect API key: ${secret.slice(0, length)}`;
      const error = mapUpstreamError({ providerId: 'up', status: 401, headers: {}, body, cut: true, secrets });
      expect(error.metadata.raw).toBe('{"error":{"message":"Incorrect API key: [redacted]');
    }
  });
});

describe('an upstream that echoes a key with JSON escapes', () => {
  it('gets no part of it back to the caller, from an error answer or from an error inside a stream', () => {
    const escaped = secret.replaceAll('/', '\\/');
    const body = `{"error":{"message":"Incorrect API key provided: ${escaped}","param":"${unicodeEscaped(secret)}"}}`;
    const answered = mapUpstreamError({ providerId: 'up', status: 400, headers: {}, body, secrets });
    expect(leaks(JSON.stringify(answered.toBody()))).toBe(false);
    expect(answered.message).toBe(
      'Provider "up" rejected the request (upstream 400): Incorrect API key provided: [redacted]',
    );

    const payload = JSON.parse(body) as { error: unknown };
    const inStream = mapUpstreamErrorPayload('up', payload.error, secrets);
    expect(leaks(JSON.stringify(inStream.toBody()))).toBe(false);
  });
});
