import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
  let released = false;
  const waiter = withFileLock(lockPath, options, async () => released);
  await sleep(150); // the waiter retries meanwhile; it must not get in
  released = true;
  await rm(lockPath);
  expect(await waiter).toBe(true); // its work ran only after the holder released
});

it('breaks a lock left by a process that died', async () => {
  await writeFile(lockPath, '1\n');
  const longAgo = new Date(Date.now() - 60_000);
  await utimes(lockPath, longAgo, longAgo);
  // Without breaking it, this would wait for the timeout and fail.
  expect(await withFileLock(lockPath, options, async () => 'done')).toBe('done');
});

it('gives up on a fresh lock after the timeout, naming the lock file', async () => {
  await writeFile(lockPath, '1\n');
  await expect(withFileLock(lockPath, { staleMs: 60_000, timeoutMs: 200 }, async () => undefined)).rejects.toThrow(
    lockPath,
  );
  // Not ours to remove.
  expect(await exists(lockPath)).toBe(true);
});
