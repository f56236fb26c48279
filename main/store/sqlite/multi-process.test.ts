// Real processes on one fresh file: they race to create and migrate it, then write concurrently.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../shared/api/index.js';
import { databaseFileName, openStore } from '../index.js';
import { latestVersion } from '../contract/schema-version.js';
import { migrations } from './migrations.js';

const rowsPerWriter = 1500;
const rowsPerTransaction = 5;
const keysPerWriter = 20;

// Every writer (the children and this process) runs the same steps, so they can be compared.
function usageRows(writer: string, from: number): UsageRecord[] {
  return Array.from({ length: rowsPerTransaction }, (_, offset) => ({
    id: `${writer}-${from + offset}`,
    created_at: Date.now(),
    key_id: writer,
    app_title: null,
    app_referer: null,
    model: 'openai/gpt-4o',
    provider: 'openai',
    streamed: true,
    status: 200,
    finish_reason: 'stop',
    prompt_tokens: from,
    completion_tokens: offset,
    cached_tokens: 0,
    reasoning_tokens: 0,
    cost: null,
    latency_ms: 1,
    ttft_ms: null,
    error: null,
    unpriced: false,
  }));
}

const childSource = (storeIndexUrl: string) => `
import { openStore } from ${JSON.stringify(storeIndexUrl)};

import fs from 'node:fs';

const [dataDir, writer, goFile] = process.argv.slice(2);
// Start together with the other writers, so that they race on creating and migrating the file.
process.stdout.write('ready\\n');
while (!fs.existsSync(goFile)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
const store = openStore(dataDir);
for (let from = 0; from < ${rowsPerWriter}; from += ${rowsPerTransaction}) {
  store.insertUsage(Array.from({ length: ${rowsPerTransaction} }, (_, offset) => ({
    id: writer + '-' + (from + offset), created_at: Date.now(), key_id: writer, app_title: null, app_referer: null,
    model: 'openai/gpt-4o', provider: 'openai', streamed: true, status: 200, finish_reason: 'stop',
    prompt_tokens: from, completion_tokens: offset, cached_tokens: 0, reasoning_tokens: 0, cost: null,
    latency_ms: 1, ttft_ms: null, error: null,
  })));
  const keyIndex = from / ${rowsPerTransaction};
  if (keyIndex < ${keysPerWriter}) {
    store.insertKey({ id: writer + '-key-' + keyIndex, name: 'k', label: 'l', secretHash: Buffer.alloc(32), createdAt: Date.now() });
    store.touchKeys(new Map([[writer + '-key-' + keyIndex, Date.now()]]));
    store.changeVersion();
  }
  // A pause between transactions, as between requests, so that the writers' transactions interleave.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
}
store.close();
`;

interface ChildResult {
  code: number | null;
  stderr: string;
}

interface Child {
  ready: Promise<void>;
  done: Promise<ChildResult>;
}

function startChild(script: string, args: string[]): Child {
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsxLoader, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<ChildResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    void done.then((result) => reject(new Error(`writer exited before it was ready: ${result.stderr}`)));
  });
  return { ready, done };
}

let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-'));
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('several processes on one database file', () => {
  it('create, migrate and write it concurrently without errors or lost rows', async () => {
    const script = path.join(dataDir, 'writer.ts');
    fs.writeFileSync(script, childSource(new URL('../index.ts', import.meta.url).href));
    const goFile = path.join(dataDir, 'go');
    const writers = ['child-a', 'child-b', 'child-c'];
    const children = writers.map((writer) => startChild(script, [dataDir, writer, goFile]));
    await Promise.all(children.map((child) => child.ready));

    fs.writeFileSync(goFile, '');
    const store = openStore(dataDir);
    try {
      for (let from = 0; from < rowsPerWriter; from += rowsPerTransaction) {
        await store.insertUsage(usageRows('parent', from));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } finally {
      await store.close();
    }

    const results = await Promise.all(children.map((child) => child.done));
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });

    const db = new Database(path.join(dataDir, databaseFileName), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('user_version', { simple: true })).toBe(latestVersion(migrations));
      expect(db.prepare('SELECT count(*) FROM usage_log').pluck().get()).toBe(rowsPerWriter * (writers.length + 1));
      const perWriter = db.prepare('SELECT key_id, count(*) AS rows FROM usage_log GROUP BY key_id ORDER BY key_id');
      expect(perWriter.all()).toEqual(
        ['child-a', 'child-b', 'child-c', 'parent'].map((writer) => ({ key_id: writer, rows: rowsPerWriter })),
      );
      // The writers really overlapped in time: each one started before any of them finished.
      const spans = db
        .prepare('SELECT min(created_at) AS first, max(created_at) AS last FROM usage_log GROUP BY key_id')
        .all() as { first: number; last: number }[];
      expect(Math.max(...spans.map((span) => span.first))).toBeLessThan(Math.min(...spans.map((span) => span.last)));
      const touchedKeys = db.prepare('SELECT count(*) FROM api_keys WHERE last_used_at IS NOT NULL').pluck().get();
      expect(touchedKeys).toBe(keysPerWriter * writers.length);
    } finally {
      db.close();
    }
  });
});
