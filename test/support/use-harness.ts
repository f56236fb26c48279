// One gateway (or fake, or app) for all the tests of a describe block: started before the first test, closed after
// the last. The accessor throws when called before the start, so a test never runs against `undefined`.

import { afterAll, beforeAll } from 'vitest';

/** Registers the start and close hooks in the current block and returns what `start` made, once it is made. */
export function useHarness<T extends { close(): Promise<unknown> }>(start: () => Promise<T>): () => T {
  let harness: T | undefined;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => {
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('the harness is used before it has started');
    return harness;
  };
}
