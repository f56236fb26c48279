// Providers that need no `providers add`: keys from the environment (in memory only) and local servers found
// running (Ollama, LM Studio), through the real composition root and gateway, against fake servers on random ports.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../main/app/index.js';
import type { FakeOpenAI } from '../support/fake-openai.js';
import { closedPort } from '../support/recording-server.js';
import { namedUpstream } from './harness.js';

const envSecret = 'sk-or-from-the-environment-5f1e';
const hi = [{ role: 'user' as const, content: 'hi' }];
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function upstream(name: string, models: string[]): Promise<{ fake: FakeOpenAI; baseUrl: string }> {
  const fake = namedUpstream(name, models);
  const baseUrl = await fake.start();
  cleanups.push(() => fake.close());
  return { fake, baseUrl };
}

async function startApp(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-sources-'));
  const app: App = createApp({
    dataDir,
    logger: pino({ level: 'silent' }),
    secretStoreMode: 'file',
    env,
    localProviders: { absentRetryMs: 0 },
  });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= app.close());
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(close);
  const gateway = app.createGateway();
  const baseURL = await gateway.listen({ host: '127.0.0.1', port: 0 });
  const key = await app.keys.create('sources');
  return { app, dataDir, close, client: new OpenAI({ baseURL, apiKey: key.key, maxRetries: 0 }) };
}

async function text(client: OpenAI, model: string): Promise<string> {
  const completion = await client.chat.completions.create({ model, messages: hi, stream: false });
  return completion.choices[0]!.message.content ?? '';
}

describe('providers from the environment and local servers', () => {
  it('serves OPENROUTER_API_KEY and a running Ollama with no configuration, keeping the key out of the data dir', async () => {
    const openrouter = await upstream('env-openrouter', ['vendor/model-a']);
    const ollama = await upstream('ollama', ['qwen3:8b']);
    const ollamaHost = new URL(ollama.baseUrl).host; // `127.0.0.1:<port>`, as OLLAMA_HOST is usually written
    const { app, dataDir, close, client } = await startApp({
      OPENROUTER_API_KEY: envSecret,
      OPENROUTER_BASE_URL: openrouter.baseUrl,
      OLLAMA_HOST: ollamaHost,
      LMSTUDIO_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`,
    });

    const models = (await client.models.list()).data.map((model) => model.id);
    expect(models).toEqual(expect.arrayContaining(['openrouter/vendor/model-a', 'ollama/qwen3:8b']));
    expect(models.some((id) => id.startsWith('lmstudio/'))).toBe(false);

    expect(await text(client, 'openrouter/vendor/model-a')).toBe('answer from env-openrouter');
    expect(openrouter.fake.chatRequests()[0]!.headers.authorization).toBe(`Bearer ${envSecret}`);
    expect(await text(client, 'ollama/qwen3:8b')).toBe('answer from ollama');
    expect(ollama.fake.chatRequests()[0]!.headers.authorization).toBeUndefined();

    const listed = await app.registry.listProviders();
    expect(listed.map((info) => [info.id, info.source, info.has_api_key])).toEqual([
      ['openrouter', 'environment', true],
      ['ollama', 'local', false],
    ]);
    expect(app.providers.list()).toEqual([]); // nothing was written to the database

    await close();
    for (const file of fs.readdirSync(dataDir, { recursive: true }) as string[]) {
      const full = path.join(dataDir, file);
      if (fs.statSync(full).isFile()) expect(fs.readFileSync(full).toString('latin1')).not.toContain(envSecret);
    }
  });

  it('lets a configured provider with the same id win over the environment', async () => {
    const fromEnv = await upstream('env-openrouter', ['m1']);
    const configured = await upstream('configured', ['m1']);
    const { app, client } = await startApp({
      OPENROUTER_API_KEY: envSecret,
      OPENROUTER_BASE_URL: fromEnv.baseUrl,
      OLLAMA_HOST: `127.0.0.1:${await closedPort()}`,
    });
    expect(await text(client, 'openrouter/m1')).toBe('answer from env-openrouter');
    await app.providers.add({ id: 'openrouter', kind: 'openai', baseUrl: configured.baseUrl, apiKey: 'sk-configured' });
    expect(await text(client, 'openrouter/m1')).toBe('answer from configured');
    expect(configured.fake.chatRequests()[0]!.headers.authorization).toBe('Bearer sk-configured');
    expect((await app.registry.listProviders()).map((info) => [info.id, info.source])).toEqual([
      ['openrouter', 'configured'],
    ]);
  });

  it('finds an Ollama started after the gateway when a request names it, and says where it looked before', async () => {
    const ollama = await upstream('ollama', ['llama3.2:latest']);
    ollama.fake.models = null; // no model list yet (as while Ollama starts): not a provider
    const { client } = await startApp({ OLLAMA_HOST: new URL(ollama.baseUrl).host });
    const error = await client.chat.completions
      .create({ model: 'ollama/llama3.2', messages: hi, stream: false })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as Error).message).toContain(`No Ollama server answered at ${ollama.baseUrl}.`);
    ollama.fake.models = ['llama3.2:latest'];
    expect(await text(client, 'ollama/llama3.2')).toBe('answer from ollama');
  });
});
