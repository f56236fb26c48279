// A request body over the 10 MiB limit gets its 413, in the error shape of the route's protocol, and the client
// can read it: the gateway answers without reading the body and then reads and drops the rest, instead of closing
// the connection while the client is still sending (a broken pipe, no status, and an SDK that retries the upload).
// The official openai SDK against `switchyard serve`: test/hardening/serve-process.test.ts.

import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxDiscardedBodyBytes } from '../../main/gateway/http/unread-body.js';
import { geminiModel, startThreeKinds, type ThreeKinds } from '../support/three-kinds.js';

const secret = 'sk-sy-v1-over-limit-caller';
const mib = 1024 * 1024;
const tooLarge = 11 * mib;

let kinds: ThreeKinds;
let port: number;

beforeAll(async () => {
  kinds = await startThreeKinds({ callers: { caller: secret } });
  port = Number(new URL(kinds.served.baseURL).port);
});

afterAll(async () => {
  await kinds?.close();
});

interface Answer {
  status: number;
  body: unknown;
  /** Body bytes the client managed to send. */
  sent: number;
  /** An error of the client's socket (EPIPE, ECONNRESET) while it sent or read. */
  failure: string | null;
}

/**
 * POSTs `size` bytes of JSON-looking body to `path`, with a Content-Length or chunked (1 MiB chunks), as fast as
 * the connection takes it, and reads the answer (the whole body is sent before the answer is awaited, as clients
 * that write first and read afterwards do).
 */
async function postLarge(path: string, size: number, chunked: boolean): Promise<Answer> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let failure: string | null = null;
  socket.on('error', (error: NodeJS.ErrnoException) => (failure ??= error.code ?? error.message));
  let received = Buffer.alloc(0);
  socket.on('data', (data: Buffer) => (received = Buffer.concat([received, data])));
  const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`;
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${secret}\r\n` +
      `Content-Type: application/json\r\n${framing}\r\n\r\n`,
  );
  // Resolves on 'drain' or 'close' (an error closes the socket; `failure` has it).
  const writable = () =>
    new Promise<void>((resolve) => {
      socket.once('drain', resolve);
      socket.once('close', resolve);
    });
  const piece = Buffer.alloc(mib, 'x');
  let sent = 0;
  while (sent < size && failure === null && !socket.destroyed) {
    const bytes = piece.subarray(0, Math.min(mib, size - sent));
    let flushed = true;
    for (const part of chunked ? [`${bytes.length.toString(16)}\r\n`, bytes, '\r\n'] : [bytes]) {
      flushed = socket.write(part);
    }
    sent += bytes.length;
    if (!flushed) await writable();
  }
  if (chunked && failure === null && !socket.destroyed) socket.write('0\r\n\r\n');
  // The answer: a head and a body of Content-Length bytes.
  const answer = () => {
    const end = received.indexOf('\r\n\r\n');
    if (end === -1) return null;
    const head = received.subarray(0, end).toString();
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
    const body = received.subarray(end + 4);
    if (body.length < length) return null;
    return { status: Number(head.split(' ')[1]), body: JSON.parse(body.toString()) as unknown };
  };
  while (answer() === null && !socket.destroyed) {
    await new Promise((resolve) => {
      socket.once('data', resolve);
      socket.once('close', resolve);
    });
  }
  socket.destroy();
  const read = answer();
  return { status: read?.status ?? 0, body: read?.body ?? null, sent, failure };
}

const interfaceShape = {
  error: { code: 413, message: expect.stringContaining('larger than the limit') as unknown, metadata: {} },
};

/** Every protocol's route, and the error body its clients expect (http/error-shapes.ts). */
const routes = [
  { protocol: 'the interface', path: '/api/v1/chat/completions', shape: interfaceShape },
  // /v1's chat completions answer in the interface's envelope, which OpenAI's clients read as theirs.
  { protocol: 'OpenAI chat completions', path: '/v1/chat/completions', shape: interfaceShape },
  {
    protocol: 'OpenAI Responses',
    path: '/v1/responses',
    shape: {
      error: {
        message: expect.stringContaining('larger than the limit') as unknown,
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    },
  },
  {
    protocol: 'Anthropic Messages',
    path: '/v1/messages',
    shape: {
      type: 'error',
      error: { type: 'request_too_large', message: expect.stringContaining('larger than the limit') as unknown },
    },
  },
  {
    protocol: 'the Gemini API',
    path: `/v1beta/models/${geminiModel}:generateContent`,
    shape: {
      error: {
        code: 413,
        message: expect.stringContaining('larger than the limit') as unknown,
        status: 'INVALID_ARGUMENT',
      },
    },
  },
];

describe('a body over the size limit', () => {
  it.each(routes)(
    'on $path: 413 in the shape of $protocol, read by a client that sends all 11 MiB first',
    async ({ path, shape }) => {
      for (const chunked of [false, true]) {
        const answer = await postLarge(path, tooLarge, chunked);
        expect({ chunked, failure: answer.failure, sent: answer.sent }).toEqual({
          chunked,
          failure: null,
          sent: tooLarge,
        });
        expect(answer.status).toBe(413);
        expect(answer.body).toEqual(shape);
      }
    },
  );

  it('reads no more than a bounded amount after the answer: a client that keeps sending is cut off', async () => {
    const answer = await postLarge('/api/v1/chat/completions', 1024 * mib, true);
    expect(answer.status).toBe(413);
    expect(answer.failure).not.toBeNull();
    // The limit, what is dropped after the answer, and what the socket buffers on the way held.
    expect(answer.sent).toBeLessThan(10 * mib + maxDiscardedBodyBytes + 32 * mib);
  });
});
