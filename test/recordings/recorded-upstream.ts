// The recordings served by the shared protocol fakes (OpenAI-compatible, Anthropic, Gemini: they route, check keys
// and headers like the real APIs): each case is the step for the model named by its id, and answers with the
// recorded status, content type and bytes, cut into a few writes as a network delivers them. A request the case was
// not recorded for (streamed when the recording was not, or the other way round) gets a 400 naming the mismatch,
// so a wiring mistake cannot pass as a translation.

import type { ProviderAdapter } from '../../main/providers/adapter.js';
import { FakeAnthropic } from '../support/fake-anthropic.js';
import { FakeGemini } from '../support/fake-gemini.js';
import { FakeOpenAI } from '../support/fake-openai.js';
import { jsonReply, replayReply, type RecordedRequest, type Step } from '../support/recording-server.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';
import type { Protocol, RecordedCase } from './recorded-cases.js';

function asksForStream(protocol: Protocol, request: RecordedRequest): boolean {
  if (protocol === 'gemini') return request.url.includes(':streamGenerateContent');
  return request.body?.stream === true;
}

export function replayStep(recorded: RecordedCase): Step {
  return (request) => {
    if (asksForStream(recorded.protocol, request) !== recorded.streamed) {
      const was = recorded.streamed ? 'streamed' : 'not streamed';
      return jsonReply(400, { error: { message: `recorded upstream: ${recorded.source} was ${was}` } });
    }
    return {
      ...replayReply(recorded.body),
      status: recorded.status,
      headers: { 'content-type': recorded.contentType },
    };
  };
}

export interface RecordedUpstreams {
  /** The base URL of each protocol's server, as a provider's `base_url`. */
  urls: Record<Protocol, string>;
  close(): Promise<void>;
}

export async function startRecordedUpstreams(cases: readonly RecordedCase[]): Promise<RecordedUpstreams> {
  // Each server lists its cases as models (the gateway checks the model exists) and replays one per model.
  const options = (protocol: Protocol) => {
    const own = cases.filter((recorded) => recorded.protocol === protocol);
    return {
      models: own.map((recorded) => recorded.id),
      byModel: Object.fromEntries(own.map((recorded) => [recorded.id, replayStep(recorded)])),
    };
  };
  const openai = new FakeOpenAI(options('openai'));
  const anthropic = new FakeAnthropic(options('anthropic'));
  const gemini = new FakeGemini(options('gemini'));
  const urls = { openai: await openai.start(), anthropic: await anthropic.start(), gemini: await gemini.start() };
  return {
    urls,
    async close() {
      await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
    },
  };
}

export interface RecordedGateway {
  /** The gateway's root (the agent protocols' base URL). */
  root: string;
  usage: TestGateway['usage'];
  close(): Promise<void>;
}

/**
 * The real gateway with one provider in front of the recorded upstream of `protocol` (a native path's tests: the
 * provider speaks the protocol the caller does), `callerSecret` its one caller key.
 */
export async function startRecordedGateway(
  cases: readonly RecordedCase[],
  protocol: Protocol,
  provider: { id: string; kind: 'openai' | 'anthropic' | 'google'; apiKey: string },
  adapter: ProviderAdapter,
  callerSecret: string,
): Promise<RecordedGateway> {
  const upstreams = await startRecordedUpstreams(cases);
  const gateway = await startTestGateway({
    providers: [{ ...provider, baseUrl: upstreams.urls[protocol] }],
    adapters: [adapter],
    callers: { 'key-1': callerSecret },
    gateway: { retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 1_000 } },
  });
  return {
    root: gateway.baseURL.replace(/\/api\/v1$/, ''),
    usage: gateway.usage,
    async close() {
      await gateway.close();
      await upstreams.close();
    },
  };
}
