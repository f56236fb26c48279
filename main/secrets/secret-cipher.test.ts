import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateSecretKey,
  SecretCipher,
  SecretDecryptionError,
  SecretKeyError,
  secretKeyVariable,
} from './secret-cipher.js';

const secret = 'sk-proj-Zz9example-provider-secret';
const context = 'provider:openai';

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SecretDecryptionError);
    const decryptionError = error as SecretDecryptionError;
    expect(decryptionError.message).not.toContain(secret);
    return decryptionError.reason;
  }
  throw new Error('expected open() to throw');
}

/** The sealed value with one byte of its payload changed. */
function flipPayloadByte(sealed: string, index: number): string {
  const [version, keyId, payload] = sealed.split('.') as [string, string, string];
  const bytes = Buffer.from(payload, 'base64url');
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  return `${version}.${keyId}.${bytes.toString('base64url')}`;
}

describe('SecretCipher', () => {
  const cipher = new SecretCipher(generateSecretKey());

  it('opens what it sealed, for the same context', () => {
    const sealed = cipher.seal(secret, context);
    expect(cipher.open(sealed, context)).toBe(secret);
    expect(cipher.open(cipher.seal('', context), context)).toBe('');
    expect(cipher.open(cipher.seal('ключ 🔑', context), context)).toBe('ключ 🔑');
  });

  it('writes a versioned value that names the key, never the secret or the key', () => {
    const keyText = generateSecretKey();
    const sealed = new SecretCipher(keyText).seal(secret, context);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64url'));
    expect(sealed).not.toContain(keyText);
    // 12-byte nonce + ciphertext as long as the secret + 16-byte tag
    expect(Buffer.from(sealed.split('.')[2]!, 'base64url')).toHaveLength(12 + secret.length + 16);
  });

  it('uses a fresh nonce for every value', () => {
    const first = cipher.seal(secret, context);
    const second = cipher.seal(secret, context);
    expect(first).not.toBe(second);
    const nonce = (sealed: string) => Buffer.from(sealed.split('.')[2]!, 'base64url').subarray(0, 12).toString('hex');
    expect(nonce(first)).not.toBe(nonce(second));
  });

  it('refuses a value sealed with another key, saying so', () => {
    const sealed = new SecretCipher(generateSecretKey()).seal(secret, context);
    expect(reasonOf(() => cipher.open(sealed, context))).toBe('wrong-key');
    expect(() => cipher.open(sealed, context)).toThrow(/encrypted with another SWITCHYARD_SECRET_KEY/);
  });

  it('refuses a value whose header names this key but was sealed with another', () => {
    const sealed = new SecretCipher(generateSecretKey()).seal(secret, context);
    const relabelled = sealed.replace(/^v1\.[0-9a-f]{8}\./, `v1.${cipher.keyId}.`);
    expect(reasonOf(() => cipher.open(relabelled, context))).toBe('tampered');
  });

  it('refuses a tampered nonce, ciphertext or tag', () => {
    const sealed = cipher.seal(secret, context);
    const payloadLength = Buffer.from(sealed.split('.')[2]!, 'base64url').length;
    for (const index of [0, 11, 12, 12 + secret.length - 1, payloadLength - 1]) {
      expect(
        reasonOf(() => cipher.open(flipPayloadByte(sealed, index), context)),
        `byte ${index}`,
      ).toBe('tampered');
    }
  });

  it('refuses a value moved to another entry (the context is authenticated)', () => {
    const sealed = cipher.seal(secret, 'provider:openai');
    expect(reasonOf(() => cipher.open(sealed, 'provider:groq'))).toBe('tampered');
  });

  it('refuses what is not a sealed value, and formats it does not know', () => {
    expect(reasonOf(() => cipher.open(secret, context))).toBe('malformed');
    expect(reasonOf(() => cipher.open('', context))).toBe('malformed');
    expect(reasonOf(() => cipher.open(`v1.${cipher.keyId}.AAAA`, context))).toBe('malformed');
    const sealed = cipher.seal(secret, context);
    expect(reasonOf(() => cipher.open(sealed.replace(/^v1\./, 'v2.'), context))).toBe('unknown-version');
  });
});

describe('SWITCHYARD_SECRET_KEY', () => {
  it('is generated as 32 random bytes in base64', () => {
    const key = generateSecretKey();
    expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(generateSecretKey()).not.toBe(key);
  });

  it('is accepted in base64url, and with surrounding whitespace (a line read from a file)', () => {
    const bytes = randomBytes(32);
    const sealed = new SecretCipher(bytes.toString('base64')).seal(secret, context);
    expect(new SecretCipher(bytes.toString('base64url')).open(sealed, context)).toBe(secret);
    expect(new SecretCipher(`${bytes.toString('base64')}\n`).open(sealed, context)).toBe(secret);
  });

  it('is a clear error when missing', () => {
    expect(() => SecretCipher.fromEnv({})).toThrow(SecretKeyError);
    expect(() => SecretCipher.fromEnv({ [secretKeyVariable]: '  ' })).toThrow(
      /SWITCHYARD_SECRET_KEY is not set\. Generate one with `switchyard secret-key generate`\./,
    );
  });

  it('is a clear error when not 32 bytes of base64, without repeating the value', () => {
    const tooShort = randomBytes(16).toString('base64');
    const tooLong = randomBytes(48).toString('base64');
    const notBase64 = `${'#'.repeat(43)}=`;
    for (const value of [tooShort, tooLong, notBase64, 'hunter2']) {
      let message = '';
      try {
        SecretCipher.fromEnv({ [secretKeyVariable]: value });
      } catch (error) {
        expect(error).toBeInstanceOf(SecretKeyError);
        message = (error as Error).message;
      }
      expect(message, value).toMatch(/must be 32 random bytes in base64 \(44 characters\)/);
      expect(message, value).not.toContain(value);
    }
    expect(() => SecretCipher.fromEnv({ [secretKeyVariable]: tooShort })).toThrow(/24 characters \(16 bytes\)/);
  });
});
