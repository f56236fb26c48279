// Runs a Python script with the test virtualenv that `npm run setup -- --test` makes (.venv-test/, the clients in
// test/python/requirements.txt), so the official Python SDKs are exercised against the gateway as their users run
// them. A missing virtualenv is an error that says how to make it, never a skipped test.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './cli.js';

export const pythonExecutable = path.join(repoRoot, '.venv-test', 'bin', 'python');

export interface PythonResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `source` as a Python program (`python -c`), with `env` added to a clean client environment. */
export function runPython(source: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<PythonResult> {
  if (!existsSync(pythonExecutable)) {
    throw new Error(
      `${pythonExecutable} is missing: run \`npm run setup -- --test\` to make the Python test clients' virtualenv`,
    );
  }
  const child = spawn(pythonExecutable, ['-c', source], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PYTHONUNBUFFERED: '1',
      // The SDKs' own environment defaults stay out of the tests.
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      GEMINI_API_KEY: '',
      GOOGLE_API_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
