// Whether a bundle can run here, said before anything is written: its `compatibility.platforms`, the program its
// mcp_config starts (node, python3, uv…) on the PATH servers start with, and the runtime versions it declares
// (`compatibility.runtimes.node: ">=18.0.0"`) against what that program reports. Ranges are read in the common
// npm forms (>=, >, <=, <, =, ^, ~, x, "a - b" is not, "||" alternatives); one we cannot read is not held against it.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describeMissingProgram, findProgram } from '../registry/runtime-check.js';
import { BundleError, type BundleManifest } from './bundle-manifest.js';

const run = promisify(execFile);

export async function checkCompatibility(
  manifest: BundleManifest,
  searchPath: string,
  platform: string = process.platform,
): Promise<void> {
  const platforms = manifest.compatibility?.platforms;
  if (platforms && !platforms.includes(platform as never)) {
    throw new BundleError(
      `${manifest.name} runs on ${platforms.join(', ')} only; this machine is ${platform}. Nothing was written.`,
    );
  }
  const command =
    manifest.server.mcp_config.platform_overrides?.[platform]?.command ?? manifest.server.mcp_config.command;
  // A program inside the bundle (`${__dirname}/bin/server`) arrives with it.
  if (command.includes('${')) return;
  const program = await findProgram(command, searchPath);
  if (!program) throw new BundleError(`${describeMissingProgram(command, searchPath)} Nothing was written.`);
  const runtime = manifest.server.type === 'python' ? 'python' : manifest.server.type === 'node' ? 'node' : undefined;
  const range = runtime ? manifest.compatibility?.runtimes?.[runtime] : undefined;
  if (!range) return;
  const version = await reportedVersion(program);
  if (version && satisfies(version, range) === false) {
    throw new BundleError(
      `${manifest.name} needs ${runtime} ${range}; ${command} here is ${version.join('.')}. Nothing was written.`,
    );
  }
}

async function reportedVersion(program: string): Promise<number[] | undefined> {
  try {
    const { stdout, stderr } = await run(program, ['--version'], { timeout: 10_000 });
    return parseVersion(`${stdout} ${stderr}`);
  } catch {
    return undefined;
  }
}

function parseVersion(text: string): number[] | undefined {
  const match = /(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?/.exec(text);
  if (!match) return undefined;
  return [match[1], match[2], match[3]].map((part) => (part === undefined || !/^\d+$/.test(part) ? NaN : Number(part)));
}

/** True or false when the range is read; undefined when it is in a form not read here. */
export function satisfies(version: number[], range: string): boolean | undefined {
  const alternatives = range.split('||').map((alternative) => alternative.trim());
  let understood = true;
  for (const alternative of alternatives) {
    const results = alternative
      .split(/\s+/)
      .filter(Boolean)
      .map((comparator) => compareWith(version, comparator));
    if (results.includes(undefined)) understood = false;
    else if (results.every(Boolean)) return true;
  }
  return understood ? false : undefined;
}

function compareWith(version: number[], comparator: string): boolean | undefined {
  const match = /^(>=|<=|>|<|=|\^|~)?\s*v?(\S+)$/.exec(comparator);
  const bound = match ? parseVersion(match[2]!) : undefined;
  if (!match || !bound) return undefined;
  const operator = match[1] ?? '=';
  const known = bound.filter((part) => !Number.isNaN(part)).length;
  const order = compare(
    version,
    bound.map((part) => (Number.isNaN(part) ? 0 : part)),
  );
  switch (operator) {
    case '>=':
      return order >= 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '<':
      return order < 0;
    case '^': {
      const major = bound.findIndex((part) => part !== 0);
      const fixed = major < 0 || major >= known ? known : major + 1;
      return order >= 0 && version.slice(0, fixed).every((part, index) => part === bound[index]);
    }
    case '~':
      return order >= 0 && version.slice(0, Math.min(known, 2)).every((part, index) => part === bound[index]);
    default:
      return version.slice(0, known).every((part, index) => part === bound[index]);
  }
}

function compare(a: number[], b: number[]): number {
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
