// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned) as a child process and reads
// what it wrote: one checks.json per scenario under a temp results folder. A scenario fails as the suite counts it
// (any check FAILURE or WARNING), so a vitest failure can name the scenario and its failed checks, not only the
// suite's exit code. The scenarios expected to fail today are listed in expected-failures.yml, each with the
// issue item that fixes it; the suite itself also fails on a stale entry.

import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '../support/cli.js';

const suiteBin = path.join(repoRoot, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
export const expectedFailuresFile = path.join(repoRoot, 'test/mcp-conformance/expected-failures.yml');
/** The specification version the suites are chosen for. */
export const specVersion = '2025-11-25';

export type Role = 'server' | 'client';

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  /** The checks that make the scenario fail (FAILURE or WARNING), as `id: message`. */
  failedChecks: string[];
}

export interface SuiteRun {
  exitCode: number | null;
  /** What the suite printed, for a failure's message. */
  output: string;
  scenarios: ScenarioResult[];
  /** The names of the scenarios that failed, sorted. */
  failing: string[];
}

/** `conformance <role> …args` with its results in a temp folder, read back and then removed. */
export async function runConformance(role: Role, args: string[], env: NodeJS.ProcessEnv = {}): Promise<SuiteRun> {
  const resultsDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-conformance-'));
  try {
    const child = spawn(process.execPath, [suiteBin, role, ...args, '--output-dir', resultsDir], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    const scenarios = await readResults(resultsDir, role);
    const failing = scenarios.filter((result) => result.failedChecks.length > 0).map((result) => result.scenario);
    return { exitCode, output, scenarios, failing: failing.sort() };
  } finally {
    await rm(resultsDir, { recursive: true, force: true });
  }
}

/** `<dir>/[server-]<scenario>-<timestamp>/checks.json`; a client scenario's `/` makes folders of its own. */
async function readResults(resultsDir: string, role: Role): Promise<ScenarioResult[]> {
  const files = (await readdir(resultsDir, { recursive: true })).filter(
    (file) => path.basename(file) === 'checks.json',
  );
  const results = await Promise.all(
    files.map(async (file) => {
      const folder = path.dirname(file).split(path.sep).join('/');
      const scenario = folder
        .replace(/-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/, '')
        .replace(role === 'server' ? /^server-/ : /^$/, '');
      const checks = JSON.parse(await readFile(path.join(resultsDir, file), 'utf8')) as Check[];
      const failedChecks = checks
        .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
        .map((check) => `${check.id} (${check.status}): ${check.errorMessage ?? check.description ?? ''}`);
      return { scenario, failedChecks };
    }),
  );
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** The scenarios of `role` that expected-failures.yml lists, sorted. */
export async function expectedFailures(role: Role): Promise<string[]> {
  const listed = (parse(await readFile(expectedFailuresFile, 'utf8')) ?? {}) as Partial<Record<Role, string[]>>;
  return [...(listed[role] ?? [])].sort();
}

/** Each failed scenario with its failed checks, then the suite's summary: what a failing test shows. */
export function describeRun(run: SuiteRun): string {
  const failures = run.scenarios
    .filter((result) => result.failedChecks.length > 0)
    .map((result) => `${result.scenario}:\n${result.failedChecks.map((check) => `  - ${check}`).join('\n')}`);
  const summary = run.output.slice(Math.max(0, run.output.lastIndexOf('SUMMARY ===')));
  return `failed scenarios and checks:\n${failures.join('\n') || '(none)'}\n\nthe suite's ${summary}`;
}
