// Apps started from a desktop menu (Finder, a GNOME launcher) inherit a minimal PATH without nvm, Homebrew or
// ~/.local/bin, so `npx` and `uvx` are "not found" although they work in a terminal. The login shell knows the
// user's real PATH: ask it once, with a timeout, and add what it knows.

import { spawn } from 'node:child_process';
import path from 'node:path';

const marker = '__SWITCHYARD_PATH__';
const defaultTimeoutMs = 5_000;

let cached: Promise<string | undefined> | undefined;

/** The login shell's PATH, or undefined on Windows, without a $SHELL, or when the shell fails or hangs. */
export function loginShellPath(timeoutMs = defaultTimeoutMs): Promise<string | undefined> {
  cached ??= readLoginShellPath(process.env.SHELL, timeoutMs);
  return cached;
}

/** Our PATH plus the login shell's entries we lack. */
export async function serverSearchPath(): Promise<string> {
  return mergeSearchPaths(process.env.PATH ?? '', await loginShellPath());
}

/**
 * Our entries come first: when Switchyard runs from a terminal its PATH is deliberate (an activated virtualenv,
 * a pinned node); when it runs from a desktop menu the login shell's entries fill in what is missing.
 */
export function mergeSearchPaths(current: string, extra: string | undefined): string {
  const entries = new Set([...current.split(path.delimiter), ...(extra ?? '').split(path.delimiter)]);
  entries.delete('');
  return [...entries].join(path.delimiter);
}

export function readLoginShellPath(shell: string | undefined, timeoutMs: number): Promise<string | undefined> {
  if (process.platform === 'win32' || !shell) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    // -i and -l read the files where users set PATH (.bashrc, .zprofile…). Those may print banners, hence the
    // markers. `detached` gives the shell its own session: an interactive shell would otherwise take over our
    // terminal's foreground process group and stop us with SIGTTOU.
    const child = spawn(shell, ['-ilc', `printf '${marker}%s${marker}' "$PATH"`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    const timer = setTimeout(() => {
      killGroup(child.pid);
      resolve(undefined);
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on('close', () => {
      clearTimeout(timer);
      const found = new RegExp(`${marker}(.*?)${marker}`, 's').exec(stdout);
      resolve(found?.[1] || undefined);
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
