// What a caller can make the server do before it has shown who it is, and how long a request may take to arrive:
// - the UI's bridge answers a request without its token, or from a foreign Host or Origin, before reading its body,
//   and reads no more for a channel than that channel's limit;
// - a request whose headers or body arrive too slowly gets a 408 in the error envelope and loses its connection,
//   while a streamed answer may take as long as it takes.

import fs from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/use-harness.js';
import { createUiToken, EventHub, registerHttpBridge, type BridgeHandlers } from '../../main/bridge/index.js';
import {
  callerSecret,
  expectErrorShape,
  faults,
  parseResponse,
  sseData,
  startHardeningHarness,
  type HardeningHarness,
  type RawResponse,
} from './harness.js';

const mib = 1024 * 1024;
/** How long a test waits for an answer that should come at once, before saying that none came. */
const answerDeadlineMs = 10_000;

/**
 * Sends the head and only the start of the body, then waits for the first complete answer without sending more:
 * an answer proves the server did not wait for the body. `drip` bytes are then sent one at a time, slowly.
 */
function answerTo(port: number, sent: string, drip = ''): Promise<RawResponse & { closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((settle) => socket.once('close', () => settle()));
    let received = Buffer.alloc(0);
    let dripped = 0;
    const dripper = setInterval(() => {
      if (dripped < drip.length && socket.writable) socket.write(drip[dripped++]!);
    }, 100);
    const deadline = setTimeout(() => {
      finish();
      reject(new Error(`no answer within ${answerDeadlineMs} ms: the server waited for the rest of the request`));
    }, answerDeadlineMs);
    const finish = () => {
      clearInterval(dripper);
      clearTimeout(deadline);
    };
    socket.on('error', () => {});
    socket.on('data', (piece: Buffer) => {
      received = Buffer.concat([received, piece]);
      const text = received.toString('utf8');
      const headEnd = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headEnd))?.[1];
      if (headEnd === -1 || length === undefined || received.length < headEnd + 4 + Number(length)) return;
      finish();
      resolve({ ...parseResponse(text), closed });
    });
    socket.once('close', () => {
      finish();
      reject(new Error(`the connection closed without a complete answer: ${received.toString('utf8').slice(0, 200)}`));
    });
    socket.write(sent);
  });
}

describe('the UI bridge before its token', () => {
  const token = createUiToken();
  const invoked: string[] = [];
  let rendererDir: string;
  let harness: HardeningHarness;

  const bridge: BridgeHandlers = {
    async invoke(channel, request) {
      invoked.push(channel);
      return { ok: true, value: { received: JSON.stringify(request).length } };
    },
    events: new EventHub(),
    channels: [],
    dispose() {},
  };

  beforeAll(async () => {
    rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-renderer-'));
    fs.mkdirSync(path.join(rendererDir, 'assets'));
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Switchyard</title>');
    fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("switchyard");');
    harness = await startHardeningHarness({
      beforeListen: (gateway) =>
        registerHttpBridge(gateway.server, bridge, { token, rendererDir, logger: pino({ level: 'silent' }) }),
    });
  });
  afterAll(async () => {
    await harness.close();
    fs.rmSync(rendererDir, { recursive: true, force: true });
  });

  /** The head of a POST /bridge/invoke/<channel> with these extra header lines. */
  const invokeHead = (channel: string, headerLines: string) =>
    `POST /bridge/invoke/${channel} HTTP/1.1\r\nContent-Type: application/json\r\n${headerLines}\r\n`;
  const host = () => `Host: 127.0.0.1:${harness.port}\r\n`;
  /** The first 64 KiB of a chat message far larger than that. */
  const bodyStart = `{"conversationId":"c1","text":"${'a'.repeat(64 * 1024)}`;

  it.each([
    { refusal: 'no token', headers: () => host(), status: 401 },
    { refusal: 'a wrong token', headers: () => `${host()}Authorization: Bearer ${createUiToken()}\r\n`, status: 401 },
    {
      refusal: 'a wrong cookie',
      headers: () => `${host()}Cookie: switchyard-ui-${harness.port}=${createUiToken()}\r\n`,
      status: 401,
    },
    {
      refusal: 'a foreign Origin',
      headers: () => `${host()}Origin: http://evil.example\r\nAuthorization: Bearer ${token}\r\n`,
      status: 403,
    },
    {
      refusal: 'a foreign Host',
      headers: () => `Host: evil.example:${harness.port}\r\nAuthorization: Bearer ${token}\r\n`,
      status: 403,
    },
  ])('answers a 30 MiB invoke with $refusal ($status) before reading its body', async ({ headers, status }) => {
    const answer = await answerTo(
      harness.port,
      invokeHead('chat:send', `${headers()}Content-Length: ${30 * mib}\r\n`) + bodyStart,
    );
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { message: expect.any(String) } });
    expect(invoked).toEqual([]);
  });

  it('reads no more for a channel than its own limit: 1 MiB for app:info is refused before the body', async () => {
    const answer = await answerTo(
      harness.port,
      invokeHead('app:info', `${host()}Authorization: Bearer ${token}\r\nContent-Length: ${mib}\r\n`) + '{"a":"',
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toEqual({
      error: { code: 'invalid-request', message: `The request is ${mib} bytes; app:info accepts at most 65536.` },
    });
    expect(invoked).toEqual([]);
  });

  it('wants a Content-Length, so that the limit is known before the body', async () => {
    const answer = await answerTo(
      harness.port,
      invokeHead('app:info', `${host()}Authorization: Bearer ${token}\r\nTransfer-Encoding: chunked\r\n`) + '2\r\n{}',
    );
    expect(answer.status).toBe(411);
    expect(invoked).toEqual([]);
  });

  it('takes a chat message of several MiB (images) with the token', async () => {
    const text = 'a'.repeat(3 * mib);
    const response = await fetch(`http://127.0.0.1:${harness.port}/bridge/invoke/chat%3Asend`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ conversationId: 'c1', text }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      result: { received: JSON.stringify({ conversationId: 'c1', text }).length },
    });
    expect(invoked).toEqual(['chat:send']);
    invoked.length = 0;
  });

  it('serves the page and its files without the token, and the event stream only with it', async () => {
    const get = (urlPath: string) => fetch(`http://127.0.0.1:${harness.port}${urlPath}`);
    expect((await get('/')).status).toBe(200);
    expect(await (await get('/assets/app.js')).text()).toContain('switchyard');
    // An old link leads to the page without a cookie, where the UI says it expired.
    const oldLink = await fetch(`http://127.0.0.1:${harness.port}/?token=wrong`, { redirect: 'manual' });
    expect([oldLink.status, oldLink.headers.get('location'), oldLink.headers.get('set-cookie')]).toEqual([
      302,
      '/',
      null,
    ]);
    const events = await get('/bridge/events');
    expect(events.status).toBe(401);
    expect(await events.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('says whether a sign-in is taken, for the page to know before it shows the app', async () => {
    const session = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${harness.port}/bridge/session`, { headers });
    const refused = await session({ cookie: `switchyard-ui-${harness.port}=${createUiToken()}` });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const taken = await session({ cookie: `switchyard-ui-${harness.port}=${token}` });
    expect([taken.status, taken.headers.get('cache-control'), await taken.json()]).toEqual([
      200,
      'no-store',
      { signed_in: true },
    ]);
  });
});

describe('requests that arrive too slowly', () => {
  const requestTimeoutMs = 300;
  const harness = useHarness(() => startHardeningHarness({ gateway: { requestTimeoutMs, keepAliveMs: 0 } }));

  const chatHead = (contentLength: number) =>
    `POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${harness().port}\r\n` +
    `Authorization: Bearer ${callerSecret}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

  it('answers a body sent a byte at a time with 408 in the error envelope, and closes the connection', async () => {
    const body = JSON.stringify({ model: `fault/${faults.ok}`, messages: [{ role: 'user', content: 'hi' }] });
    const answer = await answerTo(harness().port, chatHead(body.length) + body.slice(0, 5), body.slice(5));
    expect(answer.status).toBe(408);
    expect(expectErrorShape(408, answer.text).message).toContain(`${requestTimeoutMs / 1000} s`);
    await answer.closed;
    expect(harness().upstream.requests).toEqual([]);
  });

  it('answers headers sent a byte at a time with 408 too', async () => {
    const head = chatHead(2);
    const answer = await answerTo(harness().port, head.slice(0, 10), head.slice(10));
    expect(answer.status).toBe(408);
    expectErrorShape(408, answer.text);
    await answer.closed;
  });

  it('does not limit how long a streamed answer takes', async () => {
    const started = performance.now();
    const response = await fetch(`${harness().baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: `fault/${faults.steady}`,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    const events = sseData(await response.text());
    // The stream (50 chunks, 20 ms apart) outlasted the request timeout several times over, and was not cut.
    expect(performance.now() - started).toBeGreaterThan(2 * requestTimeoutMs);
    expect(response.status).toBe(200);
    expect(events.at(-1)).toBe('[DONE]');
    expect(events.filter((event) => event.includes('"finish_reason":"stop"'))).toHaveLength(1);
  });
});
