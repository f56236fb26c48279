// Compiling the gateway before a run and writing a run's results: bench/results/latest*.{json,md} formatted as
// Prettier would, and the markdown table printed.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './processes.js';
import { judge, renderMarkdown, type BenchResults } from './report.js';
import { log } from './runner.js';

/** Compiles main/ to dist/ as `npm run build` does, so the gateway runs as installed (node, not tsx). */
export function build(): void {
  log('compiling the gateway (tsc -p tsconfig.build.json)…');
  const result = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) {
    if (!existsSync(path.join(repoRoot, 'dist/main/cli/main.js'))) throw new Error(`tsc failed:\n${result.stdout}`);
    log(`tsc reported errors (the output was still written; the run goes on):\n${result.stdout.slice(0, 2000)}`);
  }
}

/** Writes a results file as Prettier would, so that `npm run lint` stays clean after a run. */
async function writeFormatted(file: string, text: string): Promise<void> {
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(text, { ...config, filepath: file }));
}

export function machine(loadBefore: number): BenchResults['machine'] {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    loadBefore,
    loadAfter: os.loadavg()[0]!,
  };
}

/** Writes the results (bench/results/latest<suffix>.{json,md}) and prints the markdown table. */
export async function writeResults(results: BenchResults, suffix: string): Promise<void> {
  const markdown = renderMarkdown(results);
  const resultsDir = path.join(repoRoot, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  await writeFormatted(path.join(resultsDir, `latest${suffix}.json`), JSON.stringify(results));
  await writeFormatted(path.join(resultsDir, `latest${suffix}.md`), markdown);
  process.stdout.write(`\n${markdown}`);
  const missed = results.figures.filter((figure) => judge(figure).pass === false).length;
  log(`${missed} target(s) missed; results in bench/results/latest${suffix}.{json,md}`);
}
