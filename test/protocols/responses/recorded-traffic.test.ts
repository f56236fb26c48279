// The recorded provider traffic of test/recordings (real answers of OpenAI-compatible, Anthropic and Gemini APIs,
// ../shared/recordings) replayed through POST /api/v1/responses with the openai SDK: the text, reasoning, tool calls,
// usage and opaque reasoning (signatures, redacted thinking) the caller must get are derived from the recording
// (expected-answers.ts), as for chat completions. No recording of the Responses API itself exists to replay; these
// are the upstream side, which is what the translation must carry. Answers with several choices are chat-only
// (the Responses API has no `n`) and are left to the chat replay.

import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { decodeReasoningDetails } from '../../../main/gateway/protocols/responses/reasoning-carrier.js';
import { expectedAnswer } from '../../recordings/expected-answers.js';
import { loadCatalogue, type RecordedCase } from '../../recordings/recorded-cases.js';
import { modelFor, startReplayHarness } from '../../recordings/replay-harness.js';
import { useHarness } from '../../support/use-harness.js';

const { cases } = loadCatalogue();
const harness = useHarness(() => startReplayHarness(cases));

const asked = {
  input: 'Replay the recording.',
  reasoning: { summary: 'auto' as const },
  include: ['reasoning.encrypted_content' as const],
};

interface Folded {
  status: string;
  content: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: unknown }[];
  opaqueReasoning: string[];
  usage: OpenAI.Responses.ResponseUsage | undefined;
  error: OpenAI.Responses.ResponseError | null;
}

function fold(response: OpenAI.Responses.Response): Folded {
  const folded: Folded = {
    status: response.status ?? '',
    content: '',
    reasoning: '',
    toolCalls: [],
    opaqueReasoning: [],
    usage: response.usage,
    error: response.error,
  };
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) if (part.type === 'output_text') folded.content += part.text;
    } else if (item.type === 'reasoning') {
      folded.reasoning += item.summary.map((part) => part.text).join('');
      for (const detail of decodeReasoningDetails(item.encrypted_content ?? '') ?? []) {
        if (detail.data) folded.opaqueReasoning.push(detail.data);
        if (detail.signature) folded.opaqueReasoning.push(detail.signature);
      }
    } else if (item.type === 'function_call') {
      folded.toolCalls.push({ id: item.call_id, name: item.name, arguments: JSON.parse(item.arguments) });
    }
  }
  return folded;
}

/** The stream's events folded into the last Response it described (completed, incomplete or failed). */
async function streamed(model: string): Promise<OpenAI.Responses.Response> {
  const stream = await harness().client.responses.create({ ...asked, model, stream: true });
  let last: OpenAI.Responses.Response | null = null;
  for await (const event of stream) {
    if (
      event.type === 'response.completed' ||
      event.type === 'response.incomplete' ||
      event.type === 'response.failed'
    ) {
      last = event.response;
    }
  }
  if (!last) throw new Error('the stream ended without a final response');
  return last;
}

async function replay(recorded: RecordedCase): Promise<void> {
  const expected = expectedAnswer(recorded);
  const model = modelFor(recorded);
  if (expected.error?.status != null) {
    const request = harness().client.responses.create({ ...asked, model, stream: recorded.streamed });
    const error = await request.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(expected.error.status);
    expect((error as Error).message).toContain(expected.error.message);
    return;
  }
  const response = recorded.streamed
    ? await streamed(model)
    : await harness().client.responses.create({ ...asked, model, stream: false });
  const got = fold(response);
  if (expected.error) {
    expect(got.status).toBe('failed');
    expect(got.error?.message).toContain(expected.error.message);
    return;
  }
  const want = expected.choices.get(0)!;
  expect(got.content).toBe(want.content);
  expect(got.reasoning).toBe(want.reasoning);
  expect(got.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual(
    want.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args })),
  );
  for (const [position, call] of want.toolCalls.entries()) {
    if (call.id) expect(got.toolCalls[position]!.id).toBe(call.id);
  }
  const incomplete = want.finishReason === 'length' || want.finishReason === 'content_filter';
  expect(got.status).toBe(incomplete ? 'incomplete' : 'completed');
  expect(got.opaqueReasoning).toEqual(expect.arrayContaining(expected.opaqueReasoning));
  if (!expected.usage) return;
  expect({
    input_tokens: got.usage?.input_tokens,
    output_tokens: got.usage?.output_tokens,
    total_tokens: got.usage?.total_tokens,
    cached_tokens: got.usage?.input_tokens_details.cached_tokens,
    reasoning_tokens: got.usage?.output_tokens_details.reasoning_tokens,
  }).toEqual({
    input_tokens: expected.usage.prompt_tokens,
    output_tokens: expected.usage.completion_tokens,
    total_tokens: expected.usage.total_tokens,
    cached_tokens: expected.usage.cached_tokens ?? 0,
    reasoning_tokens: expected.usage.reasoning_tokens ?? 0,
  });
}

const singleChoice = cases.filter((recorded) => {
  const expected = expectedAnswer(recorded);
  return expected.error !== null || expected.choices.size === 1;
});

describe('recorded provider traffic through the Responses API', () => {
  it('replays nearly every recording (only multi-choice answers are left out)', () => {
    expect(singleChoice.length).toBeGreaterThanOrEqual(cases.length - 3);
  });

  describe.each(['openai', 'anthropic', 'gemini'] as const)('%s protocol', (protocol) => {
    it.each(
      singleChoice.filter((recorded) => recorded.protocol === protocol).map((recorded) => [recorded.source, recorded]),
    )('%s', async (_source, recorded) => {
      await replay(recorded);
    });
  });
});
