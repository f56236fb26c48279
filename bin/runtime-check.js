// Whether this Node.js can run Switchyard (package.json "engines"), and what to do when it cannot. Plain
// JavaScript with no imports beyond Node's own, so that it runs on any Node.js a user may start the command with:
// an older one would otherwise get as far as loading a native module built for another version and crash.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The lowest version "engines" allows, as [major, minor, patch] (the field is `>=MAJOR.MINOR[.PATCH]`). */
export function minimumNode(root = projectRoot) {
  const { engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engines?.node ?? '');
  if (!match) throw new Error(`package.json "engines.node" is not of the form >=MAJOR.MINOR: ${engines?.node}`);
  return match.slice(1).map((part) => Number(part ?? 0));
}

/** Null when `version` (as in process.versions.node) is at least `minimum`; otherwise what to tell the user. */
export function runtimeProblem(version, minimum, runtimeNode) {
  const parts = version.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    if (parts[index] > minimum[index]) return null;
    if (parts[index] < minimum[index]) {
      const wanted = minimum.join('.');
      const fix = runtimeNode
        ? `use the project's own Node.js: ${runtimeNode}`
        : 'run `npm run setup` in the project (it installs Node.js 24 into .runtime/ when the machine has an older one), or install Node.js 24 LTS';
      return `Switchyard needs Node.js ${wanted} or newer; this is Node.js ${version}. To fix it, ${fix}.`;
    }
  }
  return null;
}

/** The Node.js that `npm run setup` installs into the project when the machine's is too old, if it is there. */
export function projectRuntime(root = projectRoot) {
  const node = path.join(root, '.runtime', 'bin', 'node');
  return existsSync(node) ? node : null;
}
