// What the replays of recorded traffic through a native path share (Anthropic Messages, the Gemini API): a gateway
// whose one provider is the protocol's recordings, the cases as it.each rows named by their id, and the check
// that a recorded error reaches the caller with the recorded status and message.

import { expect } from 'vitest';
import type { ProviderAdapter } from '../../main/providers/index.js';
import { loadCatalogue, type Protocol, type RecordedCase } from '../recordings/recorded-cases.js';
import { startRecordedGateway } from '../recordings/recorded-upstream.js';
import { useHarness } from '../support/use-harness.js';

type RecordedProvider = Parameters<typeof startRecordedGateway>[2];

/** The recorded cases of `protocol`, and a gateway (one per file) whose `provider` replays them. */
export function useRecordedGateway(protocol: Protocol, provider: RecordedProvider, adapter: ProviderAdapter) {
  const callerSecret = `sk-sy-v1-${protocol}-recordings`;
  const cases = loadCatalogue().cases.filter((recorded) => recorded.protocol === protocol);
  const harness = useHarness(() => startRecordedGateway(cases, protocol, provider, adapter, callerSecret));
  return { callerSecret, cases, harness };
}

/** `it.each` rows: each case under its id. */
export function byId(cases: readonly RecordedCase[]) {
  return cases.map((recorded) => [recorded.id, recorded] as const);
}

/** Checks `response` has the recorded error's status and the start of its message; gives the answer's body. */
export async function expectRecordedError<Answer>(response: Response, recorded: RecordedCase): Promise<Answer> {
  expect(response.status).toBe(recorded.status);
  const recordedError = (JSON.parse(recorded.body) as { error: { message: string } }).error;
  const answer = (await response.json()) as Answer & { error: { message: string } };
  expect(answer.error.message).toContain(recordedError.message.slice(0, 40));
  return answer;
}
