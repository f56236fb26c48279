// What the Prometheus metrics cost a request: the same gateway with and without its metrics watcher, side by side in
// one process in front of a fake upstream that answers at once (so the gateway's own work is all there is to see),
// in alternating rounds so that the machine's drift hits both alike; and the watcher alone, per generation.
//
//   node --import tsx bench/metrics-overhead.ts [--rounds 8] [--requests 400]
//
// Prints per-request medians (µs) of each round for both, their difference, and the watcher's own cost.

import { performance } from 'node:perf_hooks';
import { GatewayMetrics } from '../main/gateway/index.js';
import { answer, FakeOpenAI } from '../test/support/fake-openai.js';
import { startTestGateway, type TestGateway } from '../test/support/test-gateway.js';
import { usageRecord } from '../test/support/usage-record.js';
import { median } from './stats.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const rounds = option('rounds', 8);
const requests = option('requests', 400);
const secret = 'sk-bench-metrics';
const body = JSON.stringify({ model: 'up/echo', messages: [{ role: 'user', content: 'hi' }] });

async function timeRequests(gateway: TestGateway, count: number): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const response = await fetch(`${gateway.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    times.push(performance.now() - started);
  }
  return median(times) * 1000;
}

function watcherMicroseconds(count: number): number {
  const metrics = new GatewayMetrics();
  const row = usageRecord({ id: 'gen', key_id: 'k', model: 'up/echo', provider: 'up', ttft_ms: 5, cost: 0.001 });
  const generation = {
    id: 'gen',
    route: '/api/v1/chat/completions',
    keyId: 'k',
    model: 'up/echo',
    stream: false,
    traceParent: null,
    request: {},
  };
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const watch = metrics.watcher.started(generation)!;
    watch.attempt!('up/echo', 'up')!.answered();
    watch.ended!(row);
  }
  return ((performance.now() - started) * 1000) / count;
}

const upstream = new FakeOpenAI({ models: ['echo'], fallback: answer('Hello!') });
const upstreamUrl = await upstream.start();
const metrics = new GatewayMetrics();
const provider = { id: 'up', baseUrl: upstreamUrl };
const off = await startTestGateway({ providers: [provider], callers: { k: secret } });
const on = await startTestGateway({
  providers: [provider],
  callers: { k: secret },
  gateway: { watchers: [metrics.watcher] },
});
await timeRequests(off, 200); // warm both up: JIT, connection pools
await timeRequests(on, 200);

const offTimes: number[] = [];
const onTimes: number[] = [];
for (let round = 0; round < rounds; round++) {
  const [first, second] = round % 2 === 0 ? [off, on] : [on, off];
  const firstTime = await timeRequests(first, requests);
  const secondTime = await timeRequests(second, requests);
  (first === off ? offTimes : onTimes).push(firstTime);
  (second === off ? offTimes : onTimes).push(secondTime);
}
watcherMicroseconds(20_000); // warm-up
const perGeneration = median([1, 2, 3, 4, 5].map(() => watcherMicroseconds(50_000)));
const scrapeStarted = performance.now();
const text = await metrics.registry.metrics();
const scrapeMs = performance.now() - scrapeStarted;

const format = (values: number[]) => values.map((value) => value.toFixed(0)).join(' ');
console.log(`requests per round: ${requests}, rounds: ${rounds} (alternating)`);
console.log(
  `metrics off, median µs per request by round: ${format(offTimes)}  → median ${median(offTimes).toFixed(0)}`,
);
console.log(`metrics on,  median µs per request by round: ${format(onTimes)}  → median ${median(onTimes).toFixed(0)}`);
console.log(
  `difference: ${(median(onTimes) - median(offTimes)).toFixed(0)} µs (${((median(onTimes) / median(offTimes) - 1) * 100).toFixed(1)} %)`,
);
console.log(`the watcher alone: ${perGeneration.toFixed(2)} µs per generation`);
console.log(`one scrape of this registry: ${scrapeMs.toFixed(2)} ms, ${text.length} bytes`);

await on.close();
await off.close();
await upstream.close();
