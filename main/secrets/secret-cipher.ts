// Provider secrets encrypted at rest, for a database that other people can read (the team server's PostgreSQL,
// decision 017): AES-256-GCM with a 32-byte key from SWITCHYARD_SECRET_KEY, a random 12-byte nonce per value.
//
// A sealed value is text, safe in any column: `v1.<key id>.<base64url(nonce ‖ ciphertext ‖ tag)>`.
//   v1      the format, so that a later one (another cipher, another layout) can be told apart and read.
//   key id  8 hex digits derived from the key (never the key): a value sealed under another key is reported as
//           such, and a rotation can tell which values it has re-encrypted.
// The header and the caller's context (e.g. `provider:openai`) are authenticated with the value, so a value
// copied onto another row, or with its header edited, fails to open as surely as a flipped bit does. GCM's tag
// makes every failure an error, never a wrong secret.
//
// Messages never carry a key or a secret, only what is wrong with them.

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const secretKeyVariable = 'SWITCHYARD_SECRET_KEY';

const formatVersion = 'v1';
const keyBytes = 32;
const nonceBytes = 12;
const tagBytes = 16;
const generateHint = 'Generate one with `switchyard secret-key generate`.';
/** 32 bytes in base64: 43 characters and one `=`; the URL-safe alphabet is accepted too, padded or not. */
const keyPattern = /^(?:[A-Za-z0-9+/]{43}=|[A-Za-z0-9_-]{43}=?)$/;
const sealedPattern = /^v(\d+)\.([0-9a-f]{8})\.([A-Za-z0-9_-]+)$/;

/** SWITCHYARD_SECRET_KEY is missing or is not 32 bytes in base64. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/** A sealed value that cannot be opened with this key: why, in words and as a reason. */
export class SecretDecryptionError extends Error {
  readonly reason: 'malformed' | 'unknown-version' | 'wrong-key' | 'tampered';

  constructor(reason: SecretDecryptionError['reason'], message: string) {
    super(message);
    this.name = 'SecretDecryptionError';
    this.reason = reason;
  }
}

/** A new key for SWITCHYARD_SECRET_KEY: 32 random bytes in base64. */
export function generateSecretKey(): string {
  return randomBytes(keyBytes).toString('base64');
}

function parseKey(text: string | undefined, variable: string): Buffer {
  const value = text?.trim() ?? '';
  if (value === '') throw new SecretKeyError(`${variable} is not set. ${generateHint}`);
  if (!keyPattern.test(value)) {
    const decoded = Buffer.from(value, 'base64').length;
    throw new SecretKeyError(
      `${variable} must be ${keyBytes} random bytes in base64 (44 characters); ` +
        `the value given is ${value.length} characters${decoded > 0 ? ` (${decoded} bytes)` : ''}. ${generateHint}`,
    );
  }
  return Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** Keys for different purposes from the one the user gave, so the key id reveals nothing of the cipher's key. */
function derive(key: Buffer, purpose: string, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `switchyard ${purpose}`, length));
}

function associatedData(header: string, context: string): Buffer {
  return Buffer.from(`${header}\0${context}`, 'utf8');
}

/** The id of the key a sealed value was sealed with, or undefined when the value is not in a known layout. */
export function sealedKeyId(sealed: string): string | undefined {
  return sealedPattern.exec(sealed)?.[2];
}

export class SecretCipher {
  /** Names the key without revealing it; stored in every value sealed with it. */
  readonly keyId: string;
  private readonly key: Buffer;

  /**
   * `keyText` is SWITCHYARD_SECRET_KEY's value (or `variable`'s, named in the messages); throws SecretKeyError when
   * it is missing or malformed.
   */
  constructor(keyText: string | undefined, variable: string = secretKeyVariable) {
    const key = parseKey(keyText, variable);
    this.key = derive(key, 'secret encryption v1', keyBytes);
    this.keyId = derive(key, 'secret key id', 4).toString('hex');
  }

  /** The cipher of SWITCHYARD_SECRET_KEY in `env`. */
  static fromEnv(env: Record<string, string | undefined> = process.env): SecretCipher {
    return new SecretCipher(env[secretKeyVariable]);
  }

  /** `context` names where the value belongs (e.g. `provider:openai`); open() must be given the same. */
  seal(secret: string, context: string): string {
    const header = `${formatVersion}.${this.keyId}`;
    const nonce = randomBytes(nonceBytes);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce, { authTagLength: tagBytes });
    cipher.setAAD(associatedData(header, context));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${header}.${Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The secret sealed for this context; throws SecretDecryptionError for anything else. */
  open(sealed: string, context: string): string {
    const parts = sealedPattern.exec(sealed);
    if (!parts) throw new SecretDecryptionError('malformed', 'The stored secret is not an encrypted value.');
    const [, version, keyId, payloadText] = parts as unknown as [string, string, string, string];
    if (`v${version}` !== formatVersion) {
      throw new SecretDecryptionError(
        'unknown-version',
        `The stored secret is in format v${version}, which this Switchyard cannot read (it knows ${formatVersion}).`,
      );
    }
    if (keyId !== this.keyId) {
      throw new SecretDecryptionError(
        'wrong-key',
        `The stored secret was encrypted with another ${secretKeyVariable} (key id ${keyId}; this one is ` +
          `${this.keyId}). Start with the key it was encrypted with, or re-enter the secret.`,
      );
    }
    const payload = Buffer.from(payloadText, 'base64url');
    if (payload.length < nonceBytes + tagBytes) {
      throw new SecretDecryptionError('malformed', 'The stored secret is too short to be an encrypted value.');
    }
    const nonce = payload.subarray(0, nonceBytes);
    const tag = payload.subarray(payload.length - tagBytes);
    const decipher = createDecipheriv('aes-256-gcm', this.key, nonce, { authTagLength: tagBytes });
    decipher.setAAD(associatedData(`v${version}.${keyId}`, context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(payload.subarray(nonceBytes, -tagBytes)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretDecryptionError(
        'tampered',
        'The stored secret failed its integrity check: it was altered, or belongs to another entry.',
      );
    }
  }
}
