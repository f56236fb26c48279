// One gateway (or fake, or app, or database server) for all the tests of a describe block: started before the first
// test, closed after the last; or a fresh one for each test. The accessor throws when called before the start, so a
// test never runs against `undefined`.

import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

export type Closable = { close(): Promise<unknown> };
type Hook = (run: () => Promise<void>) => void;

function registerHarness<T>(
  [before, after]: [Hook, Hook],
  start: () => Promise<T>,
  close: (harness: T) => Promise<unknown>,
): () => T {
  let harness: T | undefined;
  before(async () => {
    harness = await start();
  });
  after(async () => {
    if (harness !== undefined) await close(harness);
  });
  return () => {
    if (harness === undefined) throw new Error('the harness is used before it has started');
    return harness;
  };
}

/**
 * Registers the start and close hooks in the current block and returns what `start` made, once it is made. `close`
 * ends it (default: its own close()).
 */
export function useHarness<T extends Closable>(start: () => Promise<T>): () => T;
export function useHarness<T>(start: () => Promise<T>, close: (harness: T) => Promise<unknown>): () => T;
export function useHarness<T>(start: () => Promise<T>, close = (harness: T) => (harness as Closable).close()): () => T {
  return registerHarness([beforeAll, afterAll], start, close);
}

/** useHarness for one test at a time: started before each test of the block, closed after it. */
export function useHarnessForEachTest<T extends Closable>(start: () => Promise<T>): () => T {
  return registerHarness([beforeEach, afterEach], start, (harness) => harness.close());
}

/** The end of what a harness started: each of `used` closed in turn (each before what it uses), then `folder` removed. */
export async function closeInTurn(used: Closable[], folder?: string): Promise<void> {
  for (const resource of used) await resource.close();
  if (folder !== undefined) fs.rmSync(folder, { recursive: true, force: true });
}
