// For the tests of every SecretStore that keeps values in memory (the 0600 file, the sealed PostgreSQL table): the
// cache's contract, checked the same way on each, with two instances on one place as two processes have them.

import { expect } from 'vitest';
import type { SecretStore } from './secret-store.js';

/**
 * Checks that `reader` serves what it last read or wrote from memory, and sees what `writer` changed or deleted
 * only after invalidate() of that account or of all; invalidating another account changes nothing.
 */
export async function expectServedFromMemoryUntilInvalidated(reader: SecretStore, writer: SecretStore): Promise<void> {
  const account = 'provider:openai';
  await writer.set(account, 'sk-first');
  expect(await reader.get(account)).toBe('sk-first');
  await writer.set(account, 'sk-second');
  expect(await reader.get(account)).toBe('sk-first');

  await reader.set(account, 'sk-old');
  await writer.set(account, 'sk-new');
  expect(await reader.get(account)).toBe('sk-old');
  reader.invalidate('provider:other');
  expect(await reader.get(account)).toBe('sk-old');
  reader.invalidate(account);
  expect(await reader.get(account)).toBe('sk-new');

  await writer.delete(account);
  expect(await reader.get(account)).toBe('sk-new');
  reader.invalidate();
  expect(await reader.get(account)).toBeNull();
}
