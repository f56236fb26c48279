import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { withFileLock } from './file-lock.js';

let dir: string;
let lockPath: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-file-lock-'));
  lockPath = path.join(dir, 'secrets.json.lock');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const options = { staleMs: 10_000, timeoutMs: 15_000 };
const exists = (target: string) =>
  stat(target).then(
    () => true,
    () => false,
  );

it('runs one holder at a time', async () => {
  let inside = 0;
  let mostInside = 0;
  const work = async () => {
    inside += 1;
    mostInside = Math.max(mostInside, inside);
    await new Promise((resolve) => setTimeout(resolve, 5));
    inside -= 1;
  };
  await Promise.all(Array.from({ length: 8 }, () => withFileLock(lockPath, options, work)));
  expect(mostInside).toBe(1);
  expect(await exists(lockPath)).toBe(false);
});

it('releases the lock when the work throws', async () => {
  await expect(withFileLock(lockPath, options, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(await exists(lockPath)).toBe(false);
});

it('waits for a live holder to release', async () => {
  await writeFile(lockPath, '1\n');
  setTimeout(() => void rm(lockPath), 150);
  const started = Date.now();
  await withFileLock(lockPath, options, async () => undefined);
  expect(Date.now() - started).toBeGreaterThanOrEqual(100);
});

it('breaks a lock left by a process that died', async () => {
  await writeFile(lockPath, '1\n');
  const longAgo = new Date(Date.now() - 60_000);
  await utimes(lockPath, longAgo, longAgo);
  const started = Date.now();
  expect(await withFileLock(lockPath, options, async () => 'done')).toBe('done');
  expect(Date.now() - started).toBeLessThan(2_000);
});

it('gives up on a fresh lock after the timeout, naming the lock file', async () => {
  await writeFile(lockPath, '1\n');
  await expect(withFileLock(lockPath, { staleMs: 60_000, timeoutMs: 200 }, async () => undefined)).rejects.toThrow(
    lockPath,
  );
  // Not ours to remove.
  expect(await exists(lockPath)).toBe(true);
});
