// Whether the program an installed server will run (npx, uvx, docker) is on the PATH servers are started with, so
// that a missing runtime is said before the entry is saved, with what to install, rather than as "not found" later.

import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

const installHints: Record<string, string> = {
  npx: 'Node.js (npx comes with it): https://nodejs.org/en/download',
  uvx: 'uv (uvx comes with it): https://docs.astral.sh/uv/getting-started/installation/',
  docker: 'Docker: https://docs.docker.com/get-started/get-docker/',
};

/** The program's full path on `searchPath`, or undefined. A path with a slash is checked as it is. */
export async function findProgram(program: string, searchPath: string): Promise<string | undefined> {
  const extensions = process.platform === 'win32' ? ['', '.cmd', '.exe', '.bat'] : [''];
  const candidates =
    program.includes('/') || program.includes('\\')
      ? [program]
      : searchPath
          .split(path.delimiter)
          .filter(Boolean)
          .flatMap((dir) => extensions.map((ext) => path.join(dir, program + ext)));
  for (const candidate of candidates) {
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** A sentence for a program that is missing: what it is and where to get it. */
export function describeMissingProgram(program: string, searchPath: string): string {
  const hint = installHints[program];
  return (
    `${program} is not installed here (not found on the PATH servers start with: ${searchPath || '(empty)'}). ` +
    (hint ? `Install ${hint}, then run the install again.` : `Install it, then run the install again.`)
  );
}

async function isExecutableFile(candidate: string): Promise<boolean> {
  try {
    if (!(await stat(candidate)).isFile()) return false;
    await access(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
