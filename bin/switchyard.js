#!/usr/bin/env node
// The installed `switchyard` command: runs the compiled CLI (built by `npm install` through the prepare script).
// Started by a Node.js older than "engines" allows (a shell whose PATH has the machine's old Node.js), it runs itself
// again on the project's own runtime when `npm run setup` installed one, and otherwise says what to do — instead of
// crashing on a native module built for another version.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { minimumNode, projectRuntime, runtimeProblem } from './runtime-check.js';

const runtimeNode = projectRuntime();
const problem = runtimeProblem(process.versions.node, minimumNode(), runtimeNode);

if (problem === null) {
  await import('../dist/main/cli/main.js');
} else if (runtimeNode !== null && process.execPath !== runtimeNode) {
  const child = spawn(runtimeNode, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  // A terminal's Ctrl+C reaches both processes; a signal sent to this one alone (a service manager's SIGTERM) is
  // passed on, and this one ends as the child did.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
} else {
  console.error(problem);
  process.exitCode = 1;
}
