// Preloaded into a child process (`--import` in NODE_OPTIONS): appends the URL of every module the process loads,
// one a line, to the file named by SWITCHYARD_TEST_MODULES_FILE, so that a test can tell what start-up loaded.
// The same file is the loader hook: registered from the main thread, it runs again in the hooks' own thread.

import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url, { data: process.env.SWITCHYARD_TEST_MODULES_FILE });

let file;

export function initialize(data) {
  file = data;
}

export async function load(url, context, nextLoad) {
  appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
