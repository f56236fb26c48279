// The format of gateway API key secrets: `sk-sy-v1-<id>-<secret>`, where <id> is the key's public id
// (16 hex chars) and <secret> is 32 random bytes in base64url (43 chars). Carrying the id lets us find
// the row with one primary-key lookup instead of hashing against every key.

import crypto from 'node:crypto';

const prefix = 'sk-sy-v1-';
const secretPattern = /^sk-sy-v1-([0-9a-f]{16})-([A-Za-z0-9_-]{43})$/;

export interface NewKeySecret {
  id: string;
  /** The full secret, shown to the user once. */
  secret: string;
  /** A masked form for lists: enough to recognise the key, useless to an attacker. */
  label: string;
}

export function generateKeySecret(): NewKeySecret {
  const id = crypto.randomBytes(8).toString('hex');
  const randomPart = crypto.randomBytes(32).toString('base64url');
  return {
    id,
    secret: `${prefix}${id}-${randomPart}`,
    label: `${prefix}${randomPart.slice(0, 3)}…${randomPart.slice(-3)}`,
  };
}

/** The key id inside a secret, or null when the string is not a secret of this format. Never throws. */
export function keyIdOf(secret: unknown): string | null {
  if (typeof secret !== 'string') return null;
  return secretPattern.exec(secret)?.[1] ?? null;
}

// sha256 without a salt or a slow KDF is right here: the secret is 256 random bits, so there is nothing to
// brute-force or look up, and a fast hash keeps authentication cheap on every request. crypto.hash (one call, no
// Hash object) takes about two thirds of createHash().update().digest()'s time.
export function hashKeySecret(secret: string): Buffer {
  return crypto.hash('sha256', secret, 'buffer');
}

export function secretMatchesHash(secret: string, storedHash: Buffer): boolean {
  const hash = hashKeySecret(secret);
  return hash.length === storedHash.length && crypto.timingSafeEqual(hash, storedHash);
}
