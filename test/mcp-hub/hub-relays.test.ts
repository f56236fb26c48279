// What the hub passes on between its clients and the servers behind it beyond tools, resources and prompts:
// progress and cancellation, log messages, completions, resource templates, subscriptions, resumable streams and
// the capabilities it declares. The MCP SDK's own client against the gateway's /mcp over server-everything and
// the fixture server (which logs on demand and has a tool that runs until cancelled), and `switchyard mcp serve`.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../main/app/index.js';
import { everythingEntry, fixtureEntry, makeTempDir, removeTempDir } from '../../main/mcp/test-support.js';
import { cliInvocation } from '../support/cli.js';
import { waitFor } from '../support/wait-for.js';
import { connectToHub, hubKey, startHubApp } from './hub-app.js';

let dataDir: string;
let app: App;
let mcpUrl: URL;
let everyKey: string;
const openClients: Client[] = [];

beforeAll(async () => {
  dataDir = await makeTempDir();
  const started = await startHubApp(dataDir, { everything: everythingEntry(), fixture: fixtureEntry(['--relays']) });
  ({ app, mcpUrl } = started);
  expect(started.servers.map((server) => server.state)).toEqual(['connected', 'connected']);
  everyKey = await keyFor('every server', ['*']);
}, 60_000);

afterAll(async () => {
  await Promise.all(openClients.map((client) => client.close().catch(() => undefined)));
  await app?.close();
  await removeTempDir(dataDir);
});

const keyFor = (name: string, allowedMcp: string[]) => hubKey(app, name, allowedMcp);

async function httpClient(secret = everyKey): Promise<Client> {
  const client = await connectToHub(mcpUrl, secret, 'relay-test');
  openClients.push(client);
  return client;
}

/** The log messages a client receives, as they arrive. */
function logsOf(client: Client): LoggingMessageNotification['params'][] {
  const messages: LoggingMessageNotification['params'][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    messages.push(notification.params);
  });
  return messages;
}

const fixtureLog = () => app.mcp.logs('fixture');
const textOf = (result: unknown) =>
  (result as CallToolResult).content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('the capabilities the hub declares', () => {
  it('are what it can always answer, and subscriptions only when a server the key may use offers them', async () => {
    const every = await httpClient();
    expect(every.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      logging: {},
      completions: {},
    });
    const fixtureOnly = await httpClient(await keyFor('fixture only', ['fixture']));
    expect(fixtureOnly.getServerCapabilities()?.resources).toEqual({ listChanged: true });
    expect(fixtureOnly.getServerCapabilities()?.logging).toEqual({});
    expect((await fixtureOnly.listResourceTemplates()).resourceTemplates).toEqual([]);
  });
});

describe('progress and cancellation', () => {
  it("passes the caller's progress token on and relays the progress to that caller only", async () => {
    const caller = await httpClient();
    const bystander = await httpClient();
    let bystanderProgress = 0;
    bystander.setNotificationHandler(ProgressNotificationSchema, () => {
      bystanderProgress += 1;
    });
    const progress: Progress[] = [];
    const result = await caller.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    expect(textOf(result)).toContain('Long running operation completed');
    // The SDK's client drops a progress notification read together with the result (the hub sends all of them
    // before it: the resumable-stream test below reads them raw), so only the ones before the last are certain.
    expect(progress.slice(0, 2)).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
    ]);
    expect(bystanderProgress).toBe(0);
  });

  it('cancels the call on the server when its caller cancels', async () => {
    const caller = await httpClient();
    const cancel = new AbortController();
    const call = caller.callTool({ name: 'fixture__wait', arguments: {} }, undefined, { signal: cancel.signal });
    await waitFor(() => fixtureLog().includes('fixture: wait started'), { what: 'the call to reach the server' });
    cancel.abort('changed my mind');
    await expect(call).rejects.toThrow(/changed my mind|abort/i);
    await waitFor(() => fixtureLog().some((line) => line.startsWith('fixture: wait cancelled')), {
      what: 'the server to see the cancellation',
    });
  });

  it('ends a call whose server goes away with an error result, leaving nothing hanging', async () => {
    const caller = await httpClient();
    const started = fixtureLog().filter((line) => line === 'fixture: wait started').length;
    const call = caller.callTool({ name: 'fixture__wait', arguments: {} });
    await waitFor(() => fixtureLog().filter((line) => line === 'fixture: wait started').length > started, {
      what: 'the call to reach the server',
    });
    await app.mcp.restart('fixture');
    const result = (await call) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/closed|stopped|connection/i);
    await app.mcp.waitUntilSettled();
  });
});

describe('logging', () => {
  it("forwards the most verbose level asked for, and relays each server's messages by each client's level", async () => {
    const verbose = await httpClient();
    const terse = await httpClient();
    const unset = await httpClient();
    const [verboseLogs, terseLogs, unsetLogs] = [logsOf(verbose), logsOf(terse), logsOf(unset)];
    await verbose.setLoggingLevel('info');
    await terse.setLoggingLevel('error');
    await waitFor(() => fixtureLog().includes('fixture: log level info'), { what: 'the level at the server' });
    expect(fixtureLog().filter((line) => line.startsWith('fixture: log level'))).toEqual(['fixture: log level info']);

    await verbose.callTool({ name: 'fixture__log', arguments: { level: 'info', data: 'for the curious' } });
    await verbose.callTool({ name: 'fixture__log', arguments: { level: 'error', data: 'for everyone' } });
    const fromFixture = (messages: typeof verboseLogs) => messages.filter((message) => message.logger === 'fixture');
    await waitFor(() => fromFixture(terseLogs).length > 0 && fromFixture(unsetLogs).length > 1, {
      what: 'the error message at every client',
    });
    expect(fromFixture(verboseLogs)).toEqual([
      { level: 'info', logger: 'fixture', data: 'for the curious' },
      { level: 'error', logger: 'fixture', data: 'for everyone' },
    ]);
    // Sent in order on one stream: had the info message reached the terse client, it would have come first.
    expect(fromFixture(terseLogs)).toEqual([{ level: 'error', logger: 'fixture', data: 'for everyone' }]);
    expect(fromFixture(unsetLogs)).toHaveLength(2);

    // A server that connects later (here: again) is given the level too.
    await app.mcp.restart('fixture');
    await app.mcp.waitUntilSettled();
    await waitFor(() => fixtureLog().filter((line) => line === 'fixture: log level info').length === 2, {
      what: 'the level at the restarted server',
    });
  });
});

describe('completions and resource templates', () => {
  it("lists every server's templates under the hub's names and reads a URI that fits one", async () => {
    const client = await httpClient();
    const { resourceTemplates } = await client.listResourceTemplates();
    const text = resourceTemplates.find((template) => template.uriTemplate.startsWith('demo://resource/dynamic/text/'));
    expect(text).toMatchObject({ uriTemplate: 'demo://resource/dynamic/text/{resourceId}' });
    expect(text!.name).toMatch(/^everything__/);
    const read = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
    expect(read.contents[0]?.uri).toBe('demo://resource/dynamic/text/7');
    await expect(client.readResource({ uri: 'demo://nowhere/7' })).rejects.toThrow(/no resource/);
  });

  it("completes a prompt's arguments under its hub name, and a template's", async () => {
    const client = await httpClient();
    const department = await client.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(department.completion.values).toEqual(['Engineering']);
    const member = await client.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(member.completion.values).toEqual(['David', 'Eve', 'Frank']);
    const resourceId = await client.complete({
      ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '12' },
    });
    expect(resourceId.completion.values).toEqual(['12']);
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'nobody__prompt' }, argument: { name: 'a', value: '' } }),
    ).rejects.toThrow(/no prompt "nobody__prompt"/);
  });
});

describe('subscriptions', () => {
  it('sends updates only to the clients subscribed to a resource, and unsubscribes when they leave', async () => {
    const [first, second, observer] = [await httpClient(), await httpClient(), await httpClient()];
    const observed = logsOf(observer);
    const updates = (client: Client) => {
      const uris: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        uris.push(notification.params.uri);
      });
      return uris;
    };
    const [firstUpdates, secondUpdates] = [updates(first), updates(second)];
    await first.subscribeResource({ uri: 'demo://resource/dynamic/text/1' });
    await second.subscribeResource({ uri: 'demo://resource/dynamic/text/2' });
    await expect(first.subscribeResource({ uri: 'demo://nowhere' })).rejects.toThrow(/no resource/);

    // The server sends an update for every URI subscribed at once, then every 5 s until toggled off.
    await first.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    try {
      await waitFor(() => firstUpdates.length > 0 && secondUpdates.length > 0, { what: 'both updates' });
    } finally {
      await first.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    }
    expect(new Set(firstUpdates)).toEqual(new Set(['demo://resource/dynamic/text/1']));
    expect(new Set(secondUpdates)).toEqual(new Set(['demo://resource/dynamic/text/2']));

    // The session ends (DELETE): its subscription ends upstream, which server-everything logs.
    await (first.transport as StreamableHTTPClientTransport).terminateSession();
    await waitFor(
      () =>
        observed.some((message) =>
          String(message.data).includes('Unsubscribe Resource request: demo://resource/dynamic/text/1'),
        ),
      { what: 'the unsubscribe at the server' },
    );

    // A restarted server remembers no subscription: the one still held is made again.
    const subscribedTwo = () =>
      observed.filter((message) =>
        String(message.data).includes('Subscribe Resource request for URI: demo://resource/dynamic/text/2'),
      ).length;
    expect(subscribedTwo()).toBe(1);
    await app.mcp.restart('everything');
    await app.mcp.waitUntilSettled();
    await waitFor(() => subscribedTwo() === 2, { what: 'the subscription made again' });
  });
});

describe('resumable streams', () => {
  const headers = (sessionId?: string) => ({
    authorization: `Bearer ${everyKey}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
  });
  const events = (response: Response, onRetry?: (ms: number) => void) =>
    response
      .body!.pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream(onRetry ? { onRetry } : {}))
      .getReader();

  it('gives events ids and a retry, and replays what a dropped connection missed after Last-Event-ID', async () => {
    const initialize = await fetch(mcpUrl, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const sessionId = initialize.headers.get('mcp-session-id')!;
    await initialize.text();
    await fetch(mcpUrl, {
      method: 'POST',
      headers: headers(sessionId),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });

    const call = await fetch(mcpUrl, {
      method: 'POST',
      headers: headers(sessionId),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'everything__trigger-long-running-operation',
          arguments: { duration: 0.4, steps: 2 },
          _meta: { progressToken: 'resume-me' },
        },
      }),
    });
    let retryMs: number | undefined;
    const dropped = events(call, (ms) => (retryMs = ms));
    const priming = (await dropped.read()).value!;
    expect(priming.id).toBeTruthy();
    expect(priming.data).toBe('');
    expect(retryMs).toBeGreaterThan(0);
    await dropped.cancel(); // the connection drops before any progress or the result

    // As a client does after `retry`: until the server has noticed the drop, the stream is still its (409).
    const resumed = await waitFor(
      async () => {
        const answer = await fetch(mcpUrl, { headers: { ...headers(sessionId), 'last-event-id': priming.id! } });
        if (answer.status !== 409) return answer;
        await answer.body?.cancel();
        return undefined;
      },
      { what: 'the resumed stream' },
    );
    expect(resumed.status).toBe(200);
    const replay = events(resumed);
    const received: EventSourceMessage[] = [];
    for (;;) {
      const { value, done } = await replay.read();
      if (done) break;
      received.push(value);
      if ((JSON.parse(value.data) as { id?: number }).id === 2) break;
    }
    await replay.cancel();
    for (const event of received) expect(event.id).toBeTruthy();
    const messages = received.map((event) => JSON.parse(event.data) as Record<string, unknown>);
    expect(messages.slice(0, -1)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progress: 1, total: 2, progressToken: 'resume-me' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progress: 2, total: 2, progressToken: 'resume-me' },
      },
    ]);
    expect(JSON.stringify(messages.at(-1))).toContain('Long running operation completed');

    const forgotten = await fetch(mcpUrl, { headers: { ...headers(sessionId), 'last-event-id': '999999' } });
    expect(forgotten.status).toBe(400);
    expect(await forgotten.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('primes the streams of a session by the version its initialize agreed on, whatever a later header says', async () => {
    const openSession = async (protocolVersion: string) => {
      const initialize = await fetch(mcpUrl, {
        method: 'POST',
        headers: { ...headers(), 'mcp-protocol-version': protocolVersion },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      await initialize.text();
      return initialize.headers.get('mcp-session-id')!;
    };
    // A call sent with the older header, as the conformance suite's SSE polling scenario does.
    const firstEvent = async (sessionId: string) => {
      const call = await fetch(mcpUrl, {
        method: 'POST',
        headers: { ...headers(sessionId), 'mcp-protocol-version': '2025-03-26' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'everything__echo', arguments: { message: 'hi' } },
        }),
      });
      const reader = events(call);
      const first = (await reader.read()).value!;
      await reader.cancel();
      return first;
    };

    const agreedLatest = await firstEvent(await openSession('2025-11-25'));
    expect(agreedLatest).toMatchObject({ data: '' });
    expect(agreedLatest.id).toBeTruthy();
    // A client that agreed on the older version gets no empty priming event, which it could not read.
    const agreedOlder = await firstEvent(await openSession('2025-03-26'));
    expect(agreedOlder.data).toContain('"id":2');
  });
});

describe('switchyard mcp serve', () => {
  it('relays progress and log messages over stdio too', async () => {
    const client = new Client({ name: 'stdio-relays', version: '1.0.0' });
    const transport = new StdioClientTransport({
      ...cliInvocation(['mcp', 'serve', '--data-dir', dataDir], { SWITCHYARD_SECRET_STORE: 'file' }),
      stderr: 'pipe',
    });
    await client.connect(transport);
    openClients.push(client);
    const messages = logsOf(client);
    await client.setLoggingLevel('warning');
    const progress: Progress[] = [];
    await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    expect(progress.map((update) => update.progress).slice(0, 2)).toEqual([1, 2]); // see the test at /mcp
    await client.callTool({ name: 'fixture__log', arguments: { level: 'info', data: 'quiet' } });
    await client.callTool({ name: 'fixture__log', arguments: { level: 'warning', data: 'loud' } });
    await waitFor(() => messages.some((message) => message.data === 'loud'), { what: 'the warning' });
    expect(messages.filter((message) => message.logger === 'fixture')).toEqual([
      { level: 'warning', logger: 'fixture', data: 'loud' },
    ]);
    await client.close();
  }, 60_000);
});
