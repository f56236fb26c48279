// What the replays of recorded traffic through a native path share (Anthropic Messages, the Gemini API): a gateway
// whose one provider is the protocol's recordings, the cases as it.each rows named by their id, a case asked under
// its own model and answered with the recorded status, and the check that a recorded error keeps its message.

import { expect } from 'vitest';
import type { ProviderAdapter } from '../../main/providers/index.js';
import { loadCatalogue, type Protocol, type RecordedCase } from '../recordings/recorded-cases.js';
import { startRecordedGateway } from '../recordings/recorded-upstream.js';
import { useHarness } from '../support/use-harness.js';

type RecordedProvider = Parameters<typeof startRecordedGateway>[2];

/** Asks the gateway at `root` for `recorded` under `model`, as the protocol's clients do. */
export type AskRecorded = (root: string, model: string, recorded: RecordedCase) => Promise<Response>;

/** The recorded cases of `protocol`, and a gateway (one per file) whose `provider` replays them. */
export function useRecordedGateway(
  protocol: Protocol,
  provider: RecordedProvider,
  adapter: ProviderAdapter,
  ask: AskRecorded,
) {
  const callerSecret = `sk-sy-v1-${protocol}-recordings`;
  const cases = loadCatalogue().cases.filter((recorded) => recorded.protocol === protocol);
  const harness = useHarness(() => startRecordedGateway(cases, protocol, provider, adapter, callerSecret));
  /** The model a case is asked under: the provider's id, then the case's. */
  const modelOf = (recorded: RecordedCase) => `${provider.id}/${recorded.id}`;
  /** The gateway's answer to `recorded`, checked to have the recorded status. */
  async function replay(recorded: RecordedCase): Promise<Response> {
    const response = await ask(harness().root, modelOf(recorded), recorded);
    expect(response.status).toBe(recorded.status);
    return response;
  }
  return { callerSecret, cases, harness, modelOf, replay };
}

/** `it.each` rows: each case under its id. */
export function byId(cases: readonly RecordedCase[]) {
  return cases.map((recorded) => [recorded.id, recorded] as const);
}

/** The body of the answer to a recorded error, checked to carry the start of the recorded message. */
export async function expectRecordedError<Answer>(response: Response, recorded: RecordedCase): Promise<Answer> {
  const recordedError = (JSON.parse(recorded.body) as { error: { message: string } }).error;
  const answer = (await response.json()) as Answer & { error: { message: string } };
  expect(answer.error.message).toContain(recordedError.message.slice(0, 40));
  return answer;
}
