import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamPart } from '../adapter.js';
import { OpenAIStreamDecoder } from '../openai/decode-stream.js';
import { createOpenAIAdapter } from '../openai/openai-adapter.js';
import { redactorFor } from './redact.js';
import { SseParts, type SsePartsOptions } from './sse-parts.js';
import { sendReply } from '../../../test/support/recording-server.js';

const servers: Server[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

const chunk = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const finish = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;

function decoder() {
  return new OpenAIStreamDecoder({ providerId: 'p', secrets: redactorFor(null) });
}

const options: SsePartsOptions = {
  maxEventChars: 1024,
  tooLarge: () => new Error('too large'),
  watchdog: { restart: () => {}, stop: () => {} },
  mapError: (error) => error,
};

async function collect(parts: AsyncIterable<StreamPart>): Promise<string[]> {
  const texts: string[] = [];
  for await (const part of parts) texts.push(part.type === 'delta' ? (part.delta.content ?? part.finish_reason!) : '');
  return texts;
}

/** An OpenAI-kind adapter, a target at `server` (started here and closed after the test) and a streamed request. */
async function openaiStreamOf(server: Server) {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const target = {
    provider: { id: 'p', kind: 'openai' as const, base_url: base, has_api_key: false, created_at: '' },
    apiKey: null,
    model: 'm',
  };
  const request = { model: 'p/m', stream: true, messages: [{ role: 'user' as const, content: 'Hi' }] };
  return { target, adapter: createOpenAIAdapter(), request };
}

describe('SseParts', () => {
  it('hands out the parts of every event in order, whatever the reads cut', async () => {
    const text = chunk('Hel') + chunk('lo') + finish + 'data: [DONE]\n\n';
    for (const size of [1, 7, 64, text.length]) {
      const pieces = Array.from({ length: Math.ceil(text.length / size) }, (_, index) =>
        Buffer.from(text.slice(index * size, (index + 1) * size)),
      );
      expect(await collect(new SseParts(Readable.from(pieces), decoder(), options))).toEqual(['Hel', 'lo', 'stop']);
    }
  });

  it('keeps characters whole when a read cuts through their bytes, and drops a byte order mark at the start', async () => {
    const bytes = Buffer.from(`\ufeff${chunk('héllo 🙂')}${chunk('ça')}${finish}data: [DONE]\n\n`);
    for (const size of [1, 2, 3, 5]) {
      const pieces = Array.from({ length: Math.ceil(bytes.length / size) }, (_, index) =>
        bytes.subarray(index * size, (index + 1) * size),
      );
      expect(await collect(new SseParts(Readable.from(pieces), decoder(), options))).toEqual([
        'héllo 🙂',
        'ça',
        'stop',
      ]);
    }
  });

  it('rejects after the parts before a failure, with the failure', async () => {
    const body = Readable.from([Buffer.from(chunk('a') + 'data: not json\n\n' + chunk('b'))]);
    const texts: string[] = [];
    const reading = (async () => {
      for await (const part of new SseParts(body, decoder(), options)) texts.push(part.type);
    })();
    await expect(reading).rejects.toMatchObject({ status: 502 });
    expect(texts).toEqual(['delta']);
  });

  it('fails a body that ends before the stream finished (truncated)', async () => {
    const body = Readable.from([Buffer.from(chunk('a'))]);
    await expect(collect(new SseParts(body, decoder(), options))).rejects.toMatchObject({
      message: expect.stringContaining('truncated') as unknown,
    });
  });

  it('destroys the body when the caller stops early', async () => {
    const body = new Readable({ read() {} });
    body.push(chunk('a'));
    const parts = new SseParts(body, decoder(), options);
    for await (const part of parts) {
      expect(part.type).toBe('delta');
      break;
    }
    expect(body.destroyed).toBe(true);
  });

  it('reads the rest of the body after [DONE] instead of dropping the connection, so that it is used again', async () => {
    let connections = 0;
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(chunk('a') + finish + 'data: [DONE]\n\n');
      // The end of the body comes a moment after [DONE], as from a server that flushes each write.
      setTimeout(() => response.end(), 20);
    });
    server.on('connection', () => (connections += 1));
    const { target, adapter, request } = await openaiStreamOf(server);
    for (let round = 0; round < 3; round += 1) {
      const parts = await adapter.streamChat(request, target, new AbortController().signal);
      expect(await collect(parts)).toEqual(['a', 'stop']);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the end of the body has come
    }
    expect(connections).toBe(1);
    await adapter.close?.();
  });

  it('lets an endless upstream get no further ahead of a slow reader than a few buffers', async () => {
    let sent = 0;
    const event = chunk('x'.repeat(300));
    const server = createServer((request, response) => {
      request.resume();
      void sendReply(response, { headers: { 'content-type': 'text/event-stream' }, repeat: event }, (bytes) => {
        sent += bytes;
      });
    });
    const { target, adapter, request } = await openaiStreamOf(server);
    const parts = await adapter.streamChat(request, target, new AbortController().signal);
    // The kernel's socket buffers on both sides hold a few MiB whatever the gateway does; past that, what the
    // upstream could send is what the reader took. Reading again after each part once let the upstream send up
    // to a network read (64 KiB) more for each part of 300 bytes taken.
    const bound = 16 * 1024 * 1024;
    let taken = 0;
    let ahead = 0;
    for await (const part of parts) {
      expect(part.type).toBe('delta');
      taken += event.length;
      ahead = Math.max(ahead, sent - taken);
      if (ahead > bound || taken >= 1_000 * event.length) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(taken).toBe(1_000 * event.length);
    expect(ahead).toBeLessThan(bound);
    await adapter.close?.();
  });
});
