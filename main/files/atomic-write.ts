// Replaces a file so that readers (the app's watcher, an editor, another Switchyard process) see the old content
// or the new one, never half of it, even after a power cut: write a temp file next to it, fsync, rename over.

import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { privateFileMode } from './private-modes.js';

export async function writeFileAtomic(
  filePath: string,
  text: string | Uint8Array,
  mode = privateFileMode,
): Promise<void> {
  const tempPath = path.join(
    path.dirname(filePath),
    `.${path.basename(filePath)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    const handle = await open(tempPath, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tempPath, filePath);
  } catch (error) {
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
  await syncDirectory(path.dirname(filePath));
}

// The rename itself lives in the directory; without this a crash can bring back the old file. Windows cannot
// open a directory for syncing, and there the rename is durable enough.
async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on directories; the data itself is already synced.
  } finally {
    await handle.close();
  }
}
