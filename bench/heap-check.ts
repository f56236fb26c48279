// Does the gateway keep anything per request? RSS only hints at it (it is a saw-tooth that follows the garbage
// collector), so this runs the real app in this process, puts it under load from the load generator's process
// round after round, and prints the JavaScript heap after a full collection each time. A leak shows as a heap
// that grows with the number of requests served.
//
//   node --expose-gc --import tsx bench/heap-check.ts [rounds]

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../main/app/index.js';
import { LoadWorker, startUpstream } from './processes.js';
import { chatBody } from './workloads.js';

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc');
const rounds = Number(process.argv[2] ?? 8);

const upstream = await startUpstream();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-heap-'));
const app = createApp({ dataDir, secretStoreMode: 'file' });
await app.providers.add({ id: 'fake', kind: 'openai', baseUrl: `http://127.0.0.1:${upstream.port}/v1`, apiKey: 'k' });
const apiKey = (await app.keys.create('heap-check')).key;
const gateway = app.createGateway();
const port = Number(new URL(await gateway.listen({ host: '127.0.0.1', port: 0 })).port);
const worker = new LoadWorker();
let served = 0;
for (let round = 0; round < rounds; round += 1) {
  const result = await worker.run({
    host: '127.0.0.1',
    port,
    path: '/api/v1/chat/completions',
    headers: { authorization: `Bearer ${apiKey}` },
    body: chatBody('fake/throughput', round % 2 === 0),
    connections: 100,
    durationMs: 15_000,
  });
  served += result.responses;
  await new Promise((resolve) => setTimeout(resolve, 500));
  collect();
  collect();
  const memory = process.memoryUsage();
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  process.stdout.write(
    `after ${served} requests: heap ${mb(memory.heapUsed)} MB after a full GC, RSS ${mb(memory.rss)} MB\n`,
  );
}
await worker.close();
await app.close();
await upstream.stop();
rmSync(dataDir, { recursive: true, force: true });
