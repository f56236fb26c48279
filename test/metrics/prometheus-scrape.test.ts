// A real Prometheus server scrapes a real `switchyard serve --workers 2` with a bearer key that has the metrics
// right, and its HTTP API answers with the series of known requests sent through a fake upstream on 127.0.0.1:
// counted once whichever worker served them. /metrics refuses a request without a key (401) and a key without the
// right (403), is absent with --no-metrics (404), and its body carries no key secret and no prompt.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, stopServer, type RunningServer } from '../support/cli.js';
import { answer, FakeOpenAI } from '../support/fake-openai.js';
import { waitFor } from '../support/wait-for.js';

const prometheusBinary = '/usr/bin/prometheus';
const prompt = 'the secret plan is purple-elephant-42';
const providerSecret = 'sk-provider-Metrics9Qx2Lm7Tz';

let upstream: FakeOpenAI;
let upstreamUrl: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let scraperKey: string;
let plainKey: string;
const servers: RunningServer[] = [];
let prometheus: ChildProcess | undefined;
let prometheusDir: string | undefined;

async function cli(args: string[]): Promise<string> {
  const result = await runCli(args, { env: { ...env, SWITCHYARD_DATA_DIR: dataDir } });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

async function createKey(name: string, ...rules: string[]): Promise<string> {
  return (JSON.parse(await cli(['keys', 'create', '--name', name, ...rules, '--json'])) as { key: string }).key;
}

async function serve(args: string[]): Promise<RunningServer> {
  const server = await startServer(['--data-dir', dataDir, '--no-ui', ...args], env);
  servers.push(server);
  return server;
}

function origin(server: RunningServer): string {
  return new URL(server.baseUrl).origin;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** Prometheus on a free port, scraping `target` every second with `key` as its bearer token. */
async function startPrometheus(target: string, key: string): Promise<string> {
  prometheusDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-prometheus-'));
  const config = path.join(prometheusDir, 'prometheus.yml');
  fs.writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: switchyard',
      '    metrics_path: /metrics',
      '    authorization:',
      `      credentials: ${key}`,
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  prometheus = spawn(prometheusBinary, [
    `--config.file=${config}`,
    `--storage.tsdb.path=${path.join(prometheusDir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
  ]);
  prometheus.stderr?.resume();
  return `http://127.0.0.1:${port}`;
}

/** One number from Prometheus's query API, or null while the query has no result. */
async function query(prometheusUrl: string, expression: string): Promise<number | null> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expression)}`).catch(
    () => null,
  );
  if (!response?.ok) return null;
  const body = (await response.json()) as { data: { result: { value: [number, string] }[] } };
  const first = body.data.result[0];
  return first ? Number(first.value[1]) : null;
}

beforeAll(async () => {
  upstream = new FakeOpenAI({
    models: ['echo-1'],
    fallback: answer({
      content: ['Hel', 'lo', '!'],
      usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
    }),
  });
  upstreamUrl = await upstream.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-metrics-'));
  env = { SWITCHYARD_SECRET_STORE: 'file', PROVIDER_KEY: providerSecret };
  const provider = ['--kind', 'openai', '--base-url', upstreamUrl, '--api-key-env', 'PROVIDER_KEY'];
  await cli(['providers', 'add', 'fake', ...provider]);
  scraperKey = await createKey('prometheus', '--allow-metrics');
  plainKey = await createKey('app');
});

afterAll(async () => {
  prometheus?.kill('SIGKILL');
  await Promise.all(servers.map(stopServer));
  await upstream?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (prometheusDir) fs.rmSync(prometheusDir, { recursive: true, force: true });
});

describe('GET /metrics', () => {
  it('refuses no key (401) and a key without the right (403) in the spec’s error shape; 404 with --no-metrics', async () => {
    const server = await serve([]);
    const anonymous = await fetch(`${origin(server)}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 401, metadata: {} } });
    const refused = await fetch(`${origin(server)}/metrics`, { headers: { authorization: `Bearer ${plainKey}` } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: { code: 403, message: expect.stringContaining('--allow-metrics') },
    });
    const allowed = await fetch(`${origin(server)}/metrics`, { headers: { authorization: `Bearer ${scraperKey}` } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toContain('text/plain');
    expect(await allowed.text()).toContain('# TYPE switchyard_requests_total counter');
    await stopServer(server);

    const off = await serve(['--no-metrics']);
    const absent = await fetch(`${origin(off)}/metrics`, { headers: { authorization: `Bearer ${scraperKey}` } });
    expect(absent.status).toBe(404);
    await stopServer(off);
  });

  it('is scraped by a real Prometheus from two workers, each request counted once, with no secret or prompt', async () => {
    const server = await serve(['--workers', '2']);
    const prometheusUrl = await startPrometheus(new URL(server.baseUrl).host, scraperKey);
    // A new connection per request: the primary deals them out to both workers.
    const client = new OpenAI({
      baseURL: server.baseUrl,
      apiKey: plainKey,
      maxRetries: 0,
      defaultHeaders: { connection: 'close' },
    });
    const requests = 12;
    for (let index = 0; index < requests; index++) {
      const stream = index % 2 === 0;
      if (stream) {
        const chunks = await client.chat.completions.create({
          model: 'fake/echo-1',
          stream: true,
          stream_options: { include_usage: true },
          messages: [{ role: 'user', content: prompt }],
        });
        for await (const chunk of chunks) void chunk;
      } else {
        await client.chat.completions.create({ model: 'fake/echo-1', messages: [{ role: 'user', content: prompt }] });
      }
    }
    // One refused for an unknown provider: counted, but its made-up model name is no label.
    await expect(
      client.chat.completions.create({ model: 'nowhere/made-up-model', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow();

    const ok =
      'sum(switchyard_requests_total{route="/api/v1/chat/completions",model="fake/echo-1",provider="fake",status="200",cache="none"})';
    await waitFor(async () => (await query(prometheusUrl, ok)) === requests, {
      what: 'Prometheus to have scraped every request',
      timeoutMs: 60_000,
      everyMs: 500,
    });
    expect(await query(prometheusUrl, 'sum(switchyard_input_tokens_total{model="fake/echo-1"})')).toBe(11 * requests);
    expect(await query(prometheusUrl, 'sum(switchyard_output_tokens_total{model="fake/echo-1"})')).toBe(3 * requests);
    expect(await query(prometheusUrl, 'sum(switchyard_added_latency_seconds_count)')).toBe(requests + 1);
    expect(await query(prometheusUrl, 'sum(switchyard_time_to_first_token_seconds_count{provider="fake"})')).toBe(
      requests,
    );
    expect(await query(prometheusUrl, 'sum(switchyard_request_errors_total{model="other"})')).toBe(1);
    expect(await query(prometheusUrl, 'sum(switchyard_in_flight_requests)')).toBe(0);
    expect(await query(prometheusUrl, 'count(switchyard_requests_total{model="nowhere/made-up-model"})')).toBeNull();
    // Both workers answered scrapes, and the whole server's counts came back from each.
    expect(await query(prometheusUrl, 'up{job="switchyard"}')).toBe(1);

    const body = await (
      await fetch(`${origin(server)}/metrics`, { headers: { authorization: `Bearer ${scraperKey}` } })
    ).text();
    for (const secret of [scraperKey, plainKey, providerSecret, prompt, 'purple-elephant'])
      expect(body).not.toContain(secret);
  }, 120_000);
});
