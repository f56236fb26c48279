// OpenTelemetry traces as a team's collector receives them: `switchyard serve` with the standard OTLP variables,
// a fake OpenAI upstream on 127.0.0.1, the official openai SDK as the caller, and a real OTLP receiver process that
// decodes each export with the official protobuf definitions. The spans are read after SIGTERM: what the batch
// processor still held must have been flushed on the way out.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureEntry, writeSettings } from '../../main/mcp/test-support.js';
import { runCli, startServer, stopServer, type RunningServer } from '../support/cli.js';
import { answer, fail } from '../support/fake-openai.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai-upstream.js';
import { OtlpReceiver, spanKind, type ReceivedSpan } from '../support/otlp-receiver.js';

const recordModules = fileURLToPath(new URL('../support/record-modules.mjs', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const callerTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpanId = '00f067aa0ba902b7';

interface Setup {
  dataDir: string;
  fake: FakeUpstream;
  key: string;
}

async function setUp(): Promise<Setup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-traces-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const fake = await startFakeUpstream({ models: ['echo-1'] });
  cleanups.push(() => fake.close());
  const cli = (...args: string[]) =>
    runCli([...args, '--data-dir', dataDir], { env: { SWITCHYARD_SECRET_STORE: 'file' } });
  const added = await cli('providers', 'add', 'up', '--kind', 'openai', '--base-url', fake.baseUrl, '--no-api-key');
  expect(added.code, added.stderr).toBe(0);
  const created = await cli('keys', 'create', '--name', 'team', '--allow-mcp', '*', '--json');
  expect(created.code, created.stderr).toBe(0);
  return { dataDir, fake, key: (JSON.parse(created.stdout) as { key: string }).key };
}

async function receiver(): Promise<OtlpReceiver> {
  const started = await OtlpReceiver.start();
  cleanups.push(() => started.close());
  return started;
}

/** `serve` with `env`, recording the modules it loads into the returned file. */
async function serve(setup: Setup, env: Record<string, string>): Promise<{ server: RunningServer; modules: string }> {
  const modules = path.join(setup.dataDir, 'modules.txt');
  const server = await startServer(['--no-ui', '--data-dir', setup.dataDir], {
    SWITCHYARD_SECRET_STORE: 'file',
    SWITCHYARD_TEST_MODULES_FILE: modules,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(recordModules).href}`,
    ...env,
  });
  cleanups.push(() => stopServer(server));
  return { server, modules };
}

async function stop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

function openTelemetryPackagesLoaded(modules: string): string[] {
  const urls = fs.readFileSync(modules, 'utf8').split('\n');
  const packages = urls.flatMap((url) => /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(url)?.[1] ?? []);
  return [...new Set(packages)];
}

function client(server: RunningServer, key: string): OpenAI {
  return new OpenAI({
    baseURL: server.baseUrl,
    apiKey: key,
    maxRetries: 0,
    defaultHeaders: { traceparent: `00-${callerTraceId}-${callerSpanId}-01` },
  });
}

function only(spans: ReceivedSpan[], predicate: (span: ReceivedSpan) => boolean): ReceivedSpan {
  const found = spans.filter(predicate);
  expect(found, JSON.stringify(spans, null, 1)).toHaveLength(1);
  return found[0]!;
}

describe('traces over OTLP', () => {
  it('exports a request span and a span per attempt over protobuf, continuing the caller trace upstream', async () => {
    const setup = await setUp();
    const otlp = await receiver();
    const { server, modules } = await serve(setup, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${otlp.baseUrl}/`,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-team=blue,authorization=Basic%20cGs6c2s%3D',
      OTEL_SERVICE_NAME: 'team-gateway',
    });
    setup.fake.script(fail(500), answer('Hello!'));

    const completion = await client(server, setup.key).chat.completions.create({
      model: 'up/echo-1',
      messages: [{ role: 'user', content: 'a secret prompt' }],
      temperature: 0.2,
      max_tokens: 50,
      stream: false,
    });
    expect(completion.choices[0]?.message.content).toBe('Hello!');
    await stop(server);

    const spans = otlp.spans();
    for (const span of spans) {
      expect(span.path).toBe('/v1/traces');
      expect(span.contentType).toBe('application/x-protobuf');
      expect(span.headers).toMatchObject({ 'x-team': 'blue', authorization: 'Basic cGs6c2s=' });
      expect(span.resource['service.name']).toBe('team-gateway');
    }
    const request = only(spans, (span) => span.kind === spanKind.server);
    expect(request).toMatchObject({
      name: 'chat up/echo-1',
      traceId: callerTraceId,
      parentSpanId: callerSpanId,
      status: { code: 0 },
    });
    expect(request.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'up',
      'gen_ai.request.model': 'up/echo-1',
      'gen_ai.response.model': 'up/echo-1',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 50,
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.response.finish_reasons': ['stop'],
      'http.route': '/api/v1/chat/completions',
    });
    const attempts = spans
      .filter((span) => span.kind === spanKind.client)
      .sort((a, b) => (a.attributes['switchyard.attempt'] as number) - (b.attributes['switchyard.attempt'] as number));
    expect(attempts.map((span) => [span.name, span.status.code, span.attributes['error.type']])).toEqual([
      ['chat up/echo-1', 2, '500'],
      ['chat up/echo-1', 0, undefined],
    ]);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ traceId: callerTraceId, parentSpanId: request.spanId });
      expect(attempt.attributes).toMatchObject({ 'gen_ai.provider.name': 'up', 'gen_ai.request.model': 'up/echo-1' });
    }
    // Each attempt told the upstream its own span as the parent.
    expect(setup.fake.chatRequests().map((received) => received.headers.traceparent)).toEqual(
      attempts.map((attempt) => `00-${callerTraceId}-${attempt.spanId}-01`),
    );
    // No prompt, no answer, no key by default.
    const exported = JSON.stringify(spans);
    expect(exported).not.toContain('a secret prompt');
    expect(exported).not.toContain('Hello!');
    expect(exported).not.toContain(setup.key);
    expect(request.attributes['gen_ai.input.messages']).toBeUndefined();
    expect(openTelemetryPackagesLoaded(modules)).toEqual(
      expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/sdk-trace', '@opentelemetry/otlp-transformer']),
    );
  }, 60_000);

  it('exports OTLP/JSON to the traces endpoint as given, with prompts and answers when capture is turned on', async () => {
    const setup = await setUp();
    const otlp = await receiver();
    const { server } = await serve(setup, {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.baseUrl}/collector/traces`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-tenant=42',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    setup.fake.script(answer('Hello!'));
    await client(server, setup.key).chat.completions.create({
      model: 'up/echo-1',
      messages: [{ role: 'user', content: 'a prompt to keep' }],
      stream: false,
    });
    const embedded = await client(server, setup.key).embeddings.create({ model: 'up/echo-1', input: 'words' });
    expect(embedded.data).toHaveLength(1);
    setup.fake.script(answer('Hello again!'));
    const stream = await client(server, setup.key).chat.completions.create({
      model: 'up/echo-1',
      messages: [{ role: 'user', content: 'stream it' }],
      stream: true,
    });
    for await (const part of stream) void part;
    setup.fake.script(fail(400, { body: { error: { message: 'bad request' } } }));
    await expect(
      client(server, setup.key).chat.completions.create({
        model: 'up/echo-1',
        messages: [{ role: 'user', content: 'refused' }],
        stream: true,
      }),
    ).rejects.toMatchObject({ status: 400 });
    await stop(server);

    const spans = otlp.spans();
    for (const span of spans) {
      expect(span).toMatchObject({ path: '/collector/traces', contentType: 'application/json' });
      expect(span.headers['x-tenant']).toBe('42');
      expect(span.resource['service.name']).toBe('switchyard');
    }
    const streamed = (span: ReceivedSpan) =>
      span.kind === spanKind.server && span.attributes['switchyard.stream'] === true;
    const refused = only(spans, (span) => streamed(span) && span.status.code === 2);
    expect(refused).toMatchObject({ name: 'chat up/echo-1' });
    expect(refused.attributes).toMatchObject({ 'error.type': '400', 'http.response.status_code': 400 });
    const answeredStream = only(spans, (span) => streamed(span) && span.status.code === 0);
    expect(answeredStream.attributes).toMatchObject({
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.response.finish_reasons': ['stop'],
      'http.response.status_code': 200,
    });
    expect(JSON.parse(answeredStream.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'stream it' }] },
    ]);
    const streamAttempt = only(spans, (span) => span.parentSpanId === answeredStream.spanId);
    expect(streamAttempt).toMatchObject({ kind: spanKind.client, status: { code: 0 } });
    const chat = only(
      spans,
      (span) => span.kind === spanKind.server && span.name.startsWith('chat') && !streamed(span),
    );
    expect(JSON.parse(chat.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'a prompt to keep' }] },
    ]);
    expect(JSON.parse(chat.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Hello!' }], finish_reason: 'stop' },
    ]);
    const embeddings = only(spans, (span) => span.kind === spanKind.server && span.name.startsWith('embeddings'));
    expect(embeddings).toMatchObject({ name: 'embeddings up/echo-1', traceId: callerTraceId });
    expect(embeddings.attributes['gen_ai.operation.name']).toBe('embeddings');
  }, 60_000);

  it('exports a span per MCP hub tool call', async () => {
    const setup = await setUp();
    await writeSettings(setup.dataDir, { fixture: fixtureEntry() });
    const otlp = await receiver();
    const { server } = await serve(setup, { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.baseUrl });
    const mcp = new Client({ name: 'trace-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${setup.key}` } },
      }),
    );
    const result = await mcp.callTool({ name: 'fixture__alpha', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'called alpha' }]);
    await mcp.close();
    await stop(server);

    const call = only(otlp.spans(), (span) => span.name.startsWith('tools/call'));
    expect(call).toMatchObject({ name: 'tools/call alpha', kind: spanKind.server, status: { code: 0 } });
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'alpha',
      'gen_ai.operation.name': 'execute_tool',
      'switchyard.mcp.server': 'fixture',
      'switchyard.mcp.client': 'trace-test',
    });
    expect(call.endTimeUnixNano).toBeGreaterThanOrEqual(call.startTimeUnixNano);
  }, 60_000);

  it('loads no OpenTelemetry module and exports nothing when no endpoint is set', async () => {
    const setup = await setUp();
    const { server, modules } = await serve(setup, {});
    setup.fake.script(answer('Hello!'));
    await client(server, setup.key).chat.completions.create({
      model: 'up/echo-1',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    // The caller's traceparent is not passed on by a gateway that does not trace.
    expect(setup.fake.chatRequests()[0]?.headers.traceparent).toBeUndefined();
    await stop(server);
    expect(fs.readFileSync(modules, 'utf8')).toContain('/node_modules/zod/'); // the record works
    expect(openTelemetryPackagesLoaded(modules)).toEqual([]);
  }, 60_000);
});
