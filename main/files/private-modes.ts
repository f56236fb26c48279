// The data dir holds provider keys, gateway key hashes, chat history and usage: everything Switchyard creates in
// it is for this user alone. Files are 0600 and directories 0700 (umask can only take bits away from these). A
// directory that already exists keeps its mode: it may be one the user chose for other things too, and the files
// in it are what must stay private.

import fs from 'node:fs';

/** Read and write for this user only: every file Switchyard creates in the data dir. */
export const privateFileMode = 0o600;

/** Every directory Switchyard creates (`mkdir(dir, { recursive: true, mode: privateDirMode })`). */
export const privateDirMode = 0o700;

/**
 * Creates the file empty with mode 0600 when it does not exist yet, for files another library creates with the
 * mode it likes (SQLite: 0644). Leaves an existing file's content alone.
 */
export function createPrivateFileSync(filePath: string): void {
  fs.closeSync(fs.openSync(filePath, 'a', privateFileMode));
}

/**
 * Makes an existing file 0600 when group or others have any access to it, as files from older versions may.
 * Returns the mode it had then, or null when it was private already or does not exist. Throws, naming the file as
 * `what` and the fix, when chmod fails (a file of another user). Windows has no POSIX modes: there files inherit
 * the per-user data dir's ACL.
 */
export function restrictFileModeSync(filePath: string, what: string): number | null {
  if (process.platform === 'win32') return null;
  let mode: number;
  try {
    mode = fs.statSync(filePath).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if ((mode & 0o077) === 0) return null;
  try {
    fs.chmodSync(filePath, privateFileMode);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${what} ${filePath} is open to other users (mode ${formatMode(mode)}) and could not be made private ` +
        `(${reason}). Run: chmod 600 "${filePath}"`,
      { cause: error },
    );
  }
  return mode;
}

/** `0644` for a mode, as `ls -l` readers know it. */
export function formatMode(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}
