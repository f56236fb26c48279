import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeSearchPaths, readLoginShellPath } from './login-shell-path.js';
import { makeTempDir, removeTempDir } from './test-support.js';

let directory: string;
beforeEach(async () => (directory = await makeTempDir()));
afterEach(() => removeTempDir(directory));

async function fakeShell(body: string): Promise<string> {
  const shell = path.join(directory, 'fake-shell');
  await writeFile(shell, `#!/bin/sh\n${body}\n`);
  await chmod(shell, 0o755);
  return shell;
}

describe.skipIf(process.platform === 'win32')('login shell PATH', () => {
  it("reads the login shell's PATH past whatever its startup files print", async () => {
    // Called as `shell -ilc COMMAND`: print a banner like a noisy .bashrc, then run the command.
    const shell = await fakeShell('echo "Welcome back!"; PATH=/opt/homebrew/bin:/usr/bin; export PATH; eval "$2"');
    expect(await readLoginShellPath(shell, 5_000)).toBe('/opt/homebrew/bin:/usr/bin');
  });

  it('gives up on a shell that hangs or fails', async () => {
    const hanging = await fakeShell('sleep 30');
    // The shell sleeps 30 s, longer than the test may run: an answer at all is the 300 ms timeout.
    expect(await readLoginShellPath(hanging, 300)).toBeUndefined();
    expect(await readLoginShellPath(path.join(directory, 'no-such-shell'), 1_000)).toBeUndefined();
    expect(await readLoginShellPath(undefined, 1_000)).toBeUndefined();
  });

  it('keeps our entries first and adds the missing ones', () => {
    expect(mergeSearchPaths('/usr/bin:/bin', '/opt/homebrew/bin:/usr/bin:/home/ada/.nvm/bin')).toBe(
      '/usr/bin:/bin:/opt/homebrew/bin:/home/ada/.nvm/bin',
    );
    expect(mergeSearchPaths('/usr/bin', undefined)).toBe('/usr/bin');
  });
});
