// The browser tests run against the built renderer: build it when dist/renderer is missing or older than any
// source it is made of (a few seconds), and otherwise leave it alone.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../support/cli.js';

const sources = ['renderer', 'shared', 'vite.config.ts', 'package.json'];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(entry)
    .reduce((newest, child) => Math.max(newest, newestMtime(path.join(entry, child))), stat.mtimeMs);
}

export function ensureRendererBuilt(): void {
  const index = path.join(repoRoot, 'dist/renderer/index.html');
  const builtAt = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const changedAt = Math.max(...sources.map((source) => newestMtime(path.join(repoRoot, source))));
  if (builtAt > changedAt) return;
  const build = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      // Vitest sets NODE_ENV=test, which would give React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}\n${build.stderr}`);
}
