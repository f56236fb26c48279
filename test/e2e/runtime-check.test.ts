// The runtime rule of package.json "engines": the tests run on a Node.js it allows, and the `switchyard` command
// started by an older one runs on the project's own runtime or says what to do, instead of crashing in a native
// module built for another version.

import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { minimumNode, projectRuntime, runtimeProblem } from '../../bin/runtime-check.js';
import { repoRoot } from '../support/cli.js';

const minimum = minimumNode();

/** A Node.js on this machine older than "engines" allows (the machine's own, where setup installed .runtime/). */
function olderNode(): string | null {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      if (runtimeProblem(version, minimum, null) !== null) return candidate;
    } catch {
      // not there
    }
  }
  return null;
}

const oldNode = olderNode();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'switchyard-runtime-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the runtime', () => {
  it('the tests themselves run on a Node.js that "engines" allows', () => {
    expect(minimum).toEqual([22, 12, 0]);
    expect(runtimeProblem(process.versions.node, minimum, null)).toBeNull();
  });

  it('an older version is named with the version needed and the way to get it', () => {
    expect(runtimeProblem('22.12.0', minimum, null)).toBeNull();
    expect(runtimeProblem('22.13.1', minimum, null)).toBeNull();
    expect(runtimeProblem('24.0.0', minimum, null)).toBeNull();
    expect(runtimeProblem('22.11.9', minimum, null)).toMatch(
      /needs Node\.js 22\.12\.0 or newer; this is Node\.js 22\.11\.9/,
    );
    const withoutRuntime = runtimeProblem('20.20.2', minimum, null);
    expect(withoutRuntime).toContain('this is Node.js 20.20.2');
    expect(withoutRuntime).toContain('npm run setup');
    expect(runtimeProblem('20.20.2', minimum, '/opt/app/.runtime/bin/node')).toContain('/opt/app/.runtime/bin/node');
  });

  it.skipIf(oldNode === null || projectRuntime() === null)(
    'started by an older Node.js, the command runs on the project’s runtime',
    () => {
      const run = spawnSync(oldNode!, [path.join(repoRoot, 'bin/switchyard.js'), '--help'], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('Usage: switchyard');
      expect(run.status).toBe(0);
    },
  );

  it.skipIf(oldNode === null)('started by an older Node.js with no runtime of its own, it says what to do', () => {
    // A copy of the command without dist/ or .runtime/ beside it: the check must answer before anything loads.
    cpSync(path.join(repoRoot, 'bin'), path.join(scratch, 'bin'), { recursive: true });
    cpSync(path.join(repoRoot, 'package.json'), path.join(scratch, 'package.json'));
    const run = spawnSync(oldNode!, [path.join(scratch, 'bin/switchyard.js'), 'serve'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^Switchyard needs Node\.js 22\.12\.0 or newer; this is Node\.js \d+\.\d+\.\d+\. To fix it, run `npm run setup`/,
    );
    expect(run.stderr).not.toMatch(/NODE_MODULE_VERSION|Error:|at /);
  });
});
