// A real gateway in front of two fake OpenAI-compatible upstreams, `primary` and `backup`, whose chat answers
// follow a script (`setup.primary.script(fail(503), answer(…))`, one step per request) and are otherwise a normal
// answer naming the server; and a provider `down` that refuses connections. For the resilience and client tests.

import OpenAI from 'openai';
import { pino } from 'pino';
import type { UsageRecord } from '../../shared/api/index.js';
import type { Gateway, GatewayOptions } from '../../main/gateway/index.js';
import { createOpenAIAdapter, type OpenAIAdapterOptions } from '../../main/providers/index.js';
import { callerSecret } from '../gateway/harness.js';
import { answer, FakeOpenAI } from '../support/fake-openai.js';
import { refusingProvider, startTestGateway } from '../support/test-gateway.js';
import { closeInTurn, useHarnessForEachTest } from '../support/use-harness.js';

/** One chunk, then the connection drops. */
export const dropAfterFirstChunk = () => answer({ content: ['Par'], ending: 'destroy' });

/** An upstream listing `models` that answers "answer from <name>" unless scripted otherwise. */
export function namedUpstream(name: string, models: string[] = ['m1', 'm2']): FakeOpenAI {
  return new FakeOpenAI({ models, fallback: answer(`answer from ${name}`) });
}

export const primarySecret = 'sk-primary-upstream-secret-1234';

export interface ResilienceGateway {
  primary: FakeOpenAI;
  backup: FakeOpenAI;
  baseURL: string;
  client: OpenAI;
  usage: UsageRecord[];
  /** The gateway's warnings (failed attempts, with the backoff it chose), parsed. */
  warnings: Record<string, unknown>[];
  gateway: Gateway;
  close(): Promise<void>;
}

/** Providers `primary` and `backup` (scripted) and `down` (refuses connections) behind a real gateway. */
export async function startResilienceGateway(
  options: GatewayOptions = {},
  adapterOptions: OpenAIAdapterOptions = {},
): Promise<ResilienceGateway> {
  const primary = namedUpstream('primary');
  const backup = namedUpstream('backup');
  const warnings: Record<string, unknown>[] = [];
  const served = await startTestGateway({
    providers: [
      { id: 'primary', baseUrl: await primary.start(), apiKey: primarySecret },
      { id: 'backup', baseUrl: await backup.start() },
      await refusingProvider('down'),
    ],
    adapters: [createOpenAIAdapter(adapterOptions)],
    callers: { 'key-1': callerSecret },
    logger: pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) }),
    gateway: { ...options, retry: { baseDelayMs: 10, maxDelayMs: 40, ...options.retry } },
  });
  const { baseURL, usage, gateway } = served;
  return {
    primary,
    backup,
    baseURL,
    client: new OpenAI({ baseURL, apiKey: callerSecret, maxRetries: 0 }),
    usage,
    warnings,
    gateway,
    close: () => closeInTurn([served, primary, backup]),
  };
}

/** A fresh resilience gateway for each test of the file, and its OpenAI-semantics base (`…/v1`). */
export function useResilienceGateway(): { readonly setup: ResilienceGateway; readonly v1: string } {
  const started = useHarnessForEachTest(() => startResilienceGateway());
  return {
    get setup() {
      return started();
    },
    get v1() {
      return started().baseURL.replace(/\/api\/v1$/, '/v1');
    },
  };
}
