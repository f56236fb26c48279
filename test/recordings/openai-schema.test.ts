// Answers translated from Anthropic and Gemini, checked against OpenAI's published schemas: every recorded answer
// (../shared/recordings) replayed through POST /v1/chat/completions, whole or streamed as it was recorded, and the
// JSON the caller got validated as a CreateChatCompletionResponse or, chunk by chunk, as a
// CreateChatCompletionStreamResponse. Recordings of failures are left to the replay test: OpenRouter's error chunk
// (finish_reason "error") is no part of OpenAI's schema. On /api/v1 a whole answer keeps OpenRouter's shape, where
// `system_fingerprint` is required (null when the upstream names none).

import { describe, expect, it } from 'vitest';
import { openAISchemaErrors } from '../support/openai-schemas.js';
import { useHarness } from '../support/use-harness.js';
import { expectedAnswer } from './expected-answers.js';
import { loadCatalogue, type RecordedCase } from './recorded-cases.js';
import { modelFor, startReplayHarness } from './replay-harness.js';

const { cases } = loadCatalogue();
const harness = useHarness(() => startReplayHarness(cases));

const messages = [{ role: 'user' as const, content: 'Replay the recording.' }];

const translated = cases.filter(
  (recorded) => recorded.protocol !== 'openai' && expectedAnswer(recorded).error === null,
);

/** The `data:` payloads of a stream as they went over the wire. */
async function rawChunks(recorded: RecordedCase): Promise<unknown[]> {
  const response = await harness()
    .v1Client.chat.completions.create({ model: modelFor(recorded), messages, stream: true })
    .asResponse();
  const text = await response.text();
  return [...text.matchAll(/^data: (.*)$/gm)]
    .map(([, data]) => data!)
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as unknown);
}

describe('answers translated from Anthropic and Gemini follow OpenAI’s schema on /v1', () => {
  it('replays a whole and a streamed recording of each', () => {
    for (const protocol of ['anthropic', 'gemini']) {
      const own = translated.filter((recorded) => recorded.protocol === protocol);
      expect(own.some((recorded) => recorded.streamed)).toBe(true);
      expect(own.some((recorded) => !recorded.streamed)).toBe(true);
    }
  });

  it.each(translated.map((recorded) => [recorded.source, recorded]))('%s', async (_source, recorded) => {
    if (recorded.streamed) {
      const chunks = await rawChunks(recorded);
      expect(chunks.length).toBeGreaterThan(0);
      for (const chunk of chunks) {
        expect(openAISchemaErrors('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
        expect(chunk).not.toHaveProperty('system_fingerprint');
      }
      return;
    }
    const completion = await harness().v1Client.chat.completions.create({
      model: modelFor(recorded),
      messages,
      stream: false,
    });
    expect(openAISchemaErrors('CreateChatCompletionResponse', completion)).toEqual([]);
    expect(completion).not.toHaveProperty('system_fingerprint');
  });
});

describe('on /api/v1 a whole answer keeps OpenRouter’s shape', () => {
  it.each(['anthropic', 'gemini'] as const)('system_fingerprint is null for %s', async (protocol) => {
    const recorded = translated.find((candidate) => candidate.protocol === protocol && !candidate.streamed)!;
    const completion = await harness().client.chat.completions.create({
      model: modelFor(recorded),
      messages,
      stream: false,
    });
    expect(completion.system_fingerprint).toBeNull();
  });
});
