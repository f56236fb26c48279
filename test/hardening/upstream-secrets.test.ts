// An upstream that echoes secrets back, in every spelling JSON and URLs allow, through the real composition root:
// a provider whose key sits in the secret store and one whose key comes from OPENAI_API_KEY, called with a key
// that has no management right, streamed and not. Nothing of the provider key, nor of the caller's own gateway
// key (which the caller put in its message, and the upstream quotes back), may reach the caller.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../main/app/index.js';
import { FakeOpenAI, type RecordedRequest, type Step } from '../support/fake-openai.js';

const storedSecret = 'sk-up/Qw9+Zr7Xk2-1357924680abcdefGHIJKL';
const envSecret = 'sk-en/Vb4+Tn8Mp3-8642097531fedcbaMNOPQR';

function unicodeEscaped(text: string): string {
  return [...text].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

/** Every spelling of `secret` an upstream might quote, as JSON text. */
function spellings(secret: string): string[] {
  return [
    secret.replaceAll('/', '\\/'),
    unicodeEscaped(secret),
    [...secret].map((character, index) => (index % 3 ? character : unicodeEscaped(character))).join(''),
    encodeURIComponent(secret),
  ];
}

/** An error body (as JSON text) quoting the request's key and its whole body in several spellings. */
function echo(recorded: RecordedRequest): string {
  const key = keyOf(recorded);
  const quotedBody = JSON.stringify(JSON.stringify(recorded.body)); // a JSON string holding the request body
  const forms = spellings(key).map((form) => `"${form}"`);
  return `{"error":{"message":"Incorrect API key provided: ${spellings(key)[0]}","keys":[${forms.join(',')}],"request":${quotedBody},"url":"https://x.test/?key=${encodeURIComponent(key)}"}}`;
}

const models = ['echo-error', 'echo-in-stream', 'echo-in-200', 'echo-garbage', 'echo-long'];

function keyOf(recorded: RecordedRequest): string {
  return String(recorded.headers.authorization).replace(/^Bearer /, '');
}

const json = { 'content-type': 'application/json' };
const eventStream = { 'content-type': 'text/event-stream' };
const echoes: Record<string, Step> = {
  'echo-error': (recorded) => ({ status: 400, headers: json, chunks: [echo(recorded)] }),
  'echo-in-stream': (recorded) => ({ headers: eventStream, chunks: [`data: ${echo(recorded)}\n\n`] }),
  'echo-in-200': (recorded) => ({ headers: json, chunks: [echo(recorded)] }),
  // Not JSON: quoted as text, cut at 500 characters; the key straddles the cut.
  'echo-garbage': (recorded) => ({
    headers: eventStream,
    chunks: [`data: {${'x'.repeat(480)} ${unicodeEscaped(keyOf(recorded))} ${keyOf(recorded)}\n\n`],
  }),
  // Over the 64 KiB an error body is read to, with the key right at the cut.
  'echo-long': (recorded) => ({
    status: 500,
    headers: { 'content-type': 'text/plain' },
    chunks: [`${'y'.repeat(64 * 1024 - 10)}${keyOf(recorded)}${'z'.repeat(1000)}`],
  }),
};

/** True when any 6 consecutive characters of `secret` past its 3-character prefix appear in `text`. */
function leaks(text: string, secret: string): boolean {
  for (let start = 3; start + 6 <= secret.length; start += 1) {
    if (text.includes(secret.slice(start, start + 6))) return true;
  }
  return false;
}

let upstream: FakeOpenAI;
let app: App;
let dataDir: string;
let baseURL: string;
let gatewayKey: string;
let closeApp: () => Promise<void>;

beforeAll(async () => {
  upstream = new FakeOpenAI({ models, byModel: echoes });
  const upstreamUrl = await upstream.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-secrets-'));
  app = createApp({
    dataDir,
    logger: pino({ level: 'silent' }),
    secretStoreMode: 'file',
    env: { OPENAI_API_KEY: envSecret, OPENAI_BASE_URL: upstreamUrl, OLLAMA_HOST: '127.0.0.1:9' },
    localProviders: { absentRetryMs: 0 },
  });
  let closing: Promise<void> | undefined;
  closeApp = () => (closing ??= app.close());
  await app.providers.add({ id: 'stored', kind: 'openai', baseUrl: upstreamUrl, apiKey: storedSecret });
  baseURL = await app.createGateway({ retry: { maxRetries: 0 } }).listen({ host: '127.0.0.1', port: 0 });
  const created = await app.keys.create('script');
  expect(created.management).toBe(false);
  gatewayKey = created.key;
});

afterAll(async () => {
  await closeApp();
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function call(model: string, stream: boolean): Promise<{ status: number; text: string }> {
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gatewayKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      stream,
      messages: [{ role: 'user', content: `my key is ${gatewayKey}, is it valid?` }],
    }),
  });
  return { status: response.status, text: await response.text() };
}

describe('an upstream that echoes secrets back', () => {
  for (const provider of [
    { id: 'stored', secret: storedSecret, from: 'the secret store' },
    { id: 'openai', secret: envSecret, from: 'OPENAI_API_KEY' },
  ]) {
    for (const model of models) {
      for (const stream of [false, true]) {
        it(`${model}, ${stream ? 'streamed' : 'whole'}, key from ${provider.from}: nothing of either key comes back`, async () => {
          const posts = () => upstream.requests.filter((request) => request.method === 'POST');
          const before = posts().length;
          const { status, text } = await call(`${provider.id}/${model}`, stream);
          // The upstream really was asked, with the provider key, and really did quote it.
          expect(posts().length).toBe(before + 1);
          expect(posts().at(-1)!.headers.authorization).toBe(`Bearer ${provider.secret}`);
          expect(status === 200 ? text : JSON.parse(text)).toBeTruthy();
          // Where the quote survives shortening, it says that something was taken out.
          expect(text.includes('[redacted]')).toBe(model !== 'echo-long');
          expect(leaks(text, provider.secret), text.slice(0, 2_000)).toBe(false);
          expect(leaks(text, gatewayKey), text.slice(0, 2_000)).toBe(false);
        });
      }
    }
  }

  it('keeps both keys out of the usage log and everything else in the data folder', async () => {
    await closeApp();
    for (const file of fs.readdirSync(dataDir, { recursive: true }) as string[]) {
      const full = path.join(dataDir, file);
      if (!fs.statSync(full).isFile() || file.startsWith('secrets')) continue;
      const content = fs.readFileSync(full).toString('latin1');
      expect(leaks(content, envSecret), file).toBe(false);
      expect(leaks(content, storedSecret), file).toBe(false);
    }
  });
});
