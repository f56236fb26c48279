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
  /** A masked form for lists: the secret's real prefix and its last four characters (`sk-sy-v1-…x7Qa`). */
  label: string;
}

export function generateKeySecret(): NewKeySecret {
  const id = crypto.randomBytes(8).toString('hex');
  const randomPart = crypto.randomBytes(32).toString('base64url');
  return {
    id,
    secret: `${prefix}${id}-${randomPart}`,
    label: `${prefix}…${randomPart.slice(-4)}`,
  };
}

/** Labels of keys made before the label was `<prefix>…<last four>`: three characters of the random part. */
const olderLabel = /^sk-sy-v1-[A-Za-z0-9_-]{3}…([A-Za-z0-9_-]{3})$/;

/**
 * The label as lists show it: the secret's real beginning, then its last characters. Older keys were labelled
 * `sk-sy-v1-3f2…9ab`, whose "3f2" is not what follows the prefix in the secret (the key's id does): they are shown
 * as `sk-sy-v1-…9ab`, which gives away less, not more.
 */
export function shownKeyLabel(label: string): string {
  const older = olderLabel.exec(label);
  return older ? `${prefix}…${older[1]}` : label;
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
