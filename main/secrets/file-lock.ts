// A lock file that lets several processes (`switchyard serve`, a CLI `providers add`, the desktop app) take turns
// at a read-modify-write of one file. Creating the lock with O_EXCL ('wx') is atomic on local file systems, so
// exactly one process holds it; the others retry with backoff.
//
// A process that dies while holding the lock leaves the file behind. The critical section takes milliseconds,
// so a lock older than `staleMs` is presumed abandoned and removed. Two waiters may judge the same stale lock
// between one's stat and unlink, and the second unlink could then remove the first one's fresh lock; that
// window is microseconds wide, opens only after a crash, and at worst loses one concurrent write.

import { open, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorCode } from './describe-error.js';

export interface FileLockOptions {
  /** A lock whose file is older than this was left by a process that died. */
  staleMs: number;
  /** Give up waiting after this long (longer than staleMs, so a stale lock is always broken first). */
  timeoutMs: number;
}

export const defaultFileLockOptions: FileLockOptions = { staleMs: 10_000, timeoutMs: 15_000 };

export async function withFileLock<T>(lockPath: string, options: FileLockOptions, work: () => Promise<T>): Promise<T> {
  await acquire(lockPath, options);
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch((error: unknown) => {
      // Someone judged our lock stale and removed it; nothing left to release.
      if (errorCode(error) !== 'ENOENT') throw error;
    });
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<void> {
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      // The pid is for a human wondering who holds the lock; nothing reads it.
      await handle.writeFile(`${process.pid}\n`).finally(() => handle.close());
      return;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    if (await removeIfStale(lockPath, options.staleMs)) continue;
    if (Date.now() - started > options.timeoutMs) {
      throw new Error(
        `Timed out after ${options.timeoutMs} ms waiting for the lock ${lockPath}. ` +
          'If no other Switchyard process is saving secrets, delete that file.',
      );
    }
    // Exponential backoff with jitter, so two waiters do not retry in lockstep.
    await sleep(Math.min(250, 5 * 2 ** attempt) * (0.5 + Math.random()));
  }
}

async function removeIfStale(lockPath: string, staleMs: number): Promise<boolean> {
  const lock = await stat(lockPath).catch(() => null);
  // Gone already: the holder released it, so try again at once.
  if (!lock) return true;
  if (Date.now() - lock.mtimeMs <= staleMs) return false;
  await unlink(lockPath).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error;
  });
  return true;
}
