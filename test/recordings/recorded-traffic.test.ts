// Real provider traffic, recorded from the live APIs by other projects (../shared/recordings, SOURCES.md names each
// origin), replayed through the gateway: the recording is the upstream, the official openai SDK the caller, and
// what the caller must get is derived from the recording (expected-answers.ts), never copied from our output.
//
// Set aside, and why (asserted below): pydantic-ai's test_google_model_armor_prompt_template_text_gets_blocked
// cassette opens with Google's OAuth token exchange for Vertex AI, which is not a generation (the gateway's Gemini
// adapter uses an API key); the cassette's generateContent answer is replayed. Errors are replayed as what they are:
// the status and message the caller must get.

import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { sdkError } from '../gateway/harness.js';
import { useHarness } from '../support/use-harness.js';
import { expectedAnswer, type ExpectedAnswer } from './expected-answers.js';
import { loadCatalogue, type RecordedCase } from './recorded-cases.js';
import { listedInSources, listRecordings } from './recordings-folder.js';
import {
  completeCase,
  modelFor,
  startReplayHarness,
  streamCase,
  streamCaseRaw,
  type ReceivedAnswer,
} from './replay-harness.js';

// Read when the file loads: without the folder the whole file fails, it never passes by finding nothing.
const { cases, setAside } = loadCatalogue();

const harness = useHarness(() => startReplayHarness(cases));

function expectSameAnswer(received: ReceivedAnswer, expected: ExpectedAnswer): void {
  expect([...received.choices.keys()].sort()).toEqual([...expected.choices.keys()].sort());
  for (const [index, want] of expected.choices) {
    const got = received.choices.get(index)!;
    expect(got.content).toBe(want.content);
    expect(got.reasoning).toBe(want.reasoning);
    expect(got.toolCalls.map(({ name, argumentsText }) => ({ name, arguments: JSON.parse(argumentsText) }))).toEqual(
      want.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args })),
    );
    for (const [position, call] of want.toolCalls.entries()) {
      const id = got.toolCalls[position]!.id;
      // Without an upstream id the gateway makes one up: clients need one to answer the call.
      if (call.id) expect(id).toBe(call.id);
      else expect(id).toMatch(/\S/);
    }
    // Exactly one terminal chunk per choice.
    expect(got.finishReasons).toEqual([want.finishReason]);
  }
  expect(received.opaqueReasoning).toEqual(expect.arrayContaining(expected.opaqueReasoning));
  expect(received.usages.length).toBeLessThanOrEqual(1);
  if (!expected.usage) return;
  expect(received.usages).toHaveLength(1);
  const usage = received.usages[0]!;
  expect({
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
    cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? null,
    reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? null,
  }).toEqual(expected.usage);
}

function expectUsageRow(received: ReceivedAnswer, expected: ExpectedAnswer): void {
  const row = harness().usage.find((candidate) => candidate.id === received.id);
  expect(row).toMatchObject({
    status: 200,
    finish_reason: expected.choices.get(0)?.finishReason,
    prompt_tokens: expected.usage?.prompt_tokens ?? 0,
    completion_tokens: expected.usage?.completion_tokens ?? 0,
    cached_tokens: expected.usage?.cached_tokens ?? 0,
    reasoning_tokens: expected.usage?.reasoning_tokens ?? 0,
  });
}

async function replay(recorded: RecordedCase): Promise<void> {
  const expected = expectedAnswer(recorded);
  if (expected.error?.status != null) {
    // The upstream refused before answering: the caller gets the status and the upstream's reason.
    const request = recorded.streamed ? streamCase(harness(), recorded) : completeCase(harness(), recorded);
    const error = await sdkError(request);
    expect(error.status).toBe(expected.error.status);
    expect(error.message).toContain(expected.error.message);
    const row = harness()
      .usage.filter((candidate) => candidate.model === modelFor(recorded))
      .at(-1);
    expect(row).toMatchObject({ status: expected.error.status, prompt_tokens: 0, completion_tokens: 0 });
    return;
  }
  let received: ReceivedAnswer;
  if (!recorded.streamed) {
    received = await completeCase(harness(), recorded);
  } else if (expected.error) {
    // A failure mid-stream: the SDK throws at the error chunk, after the chunks before it.
    const { sdkError } = await streamCase(harness(), recorded);
    expect(sdkError).toBeInstanceOf(OpenAI.APIError);
    expect((sdkError as Error).message).toContain(expected.error.message);
    received = await streamCaseRaw(harness(), recorded);
    expect(received.streamError?.message).toContain(expected.error.message);
  } else {
    const streamed = await streamCase(harness(), recorded);
    expect(streamed.sdkError).toBeNull();
    received = streamed.answer;
  }
  expectSameAnswer(received, expected);
  expectUsageRow(received, expected);
}

describe('recorded provider traffic', () => {
  it('covers every recording SOURCES.md lists, and only those', () => {
    expect(listRecordings()).toEqual(listedInSources());
    expect(listRecordings().length).toBeGreaterThanOrEqual(62);
  });

  it('sets aside only the exchange that is not a generation', () => {
    expect(setAside.map(({ source }) => source)).toEqual([
      'pydantic__pydantic-ai/tests/models/cassettes/test_google/test_google_model_armor_prompt_template_text_gets_blocked.yaml#1',
    ]);
  });

  describe.each(['openai', 'anthropic', 'gemini'] as const)('%s protocol', (protocol) => {
    it.each(cases.filter((recorded) => recorded.protocol === protocol).map((recorded) => [recorded.source, recorded]))(
      '%s',
      async (_source, recorded) => {
        await replay(recorded);
      },
    );
  });
});
