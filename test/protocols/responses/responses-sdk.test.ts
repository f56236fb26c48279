// POST /v1/responses driven by the official openai SDK (`client.responses.create`, whole and streamed, and
// `client.responses.stream`) against an OpenAI-, an Anthropic- and a Google-kind upstream: text, function and
// custom tools over two turns, reasoning signatures round-tripped through encrypted_content, images, JSON schema
// output, errors before and during the stream, usage and cost.

import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { callerSecret } from '../../gateway/harness.js';
import { answer, errorEvent, fail } from '../../support/fake-openai.js';
import { useHarness } from '../../support/use-harness.js';
import { anthropicModel, geminiModel, openaiModel, startResponsesHarness } from './responses-harness.js';

const harness = useHarness(startResponsesHarness);

const weatherTools: OpenAI.Responses.Tool[] = [
  {
    type: 'function',
    name: 'get_weather',
    strict: false,
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
  { type: 'function', name: 'get_time', strict: false, parameters: { type: 'object', properties: {} } },
];

/** The SDK's error for a call that must fail. */
async function sdkError(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

/** The input items of a next turn: what was asked, the answer's output, and an output for each function call. */
function nextTurn(question: string, output: OpenAI.Responses.ResponseOutputItem[]): OpenAI.Responses.ResponseInput {
  const results = output.flatMap((item): OpenAI.Responses.ResponseInputItem[] =>
    item.type === 'function_call'
      ? [{ type: 'function_call_output', call_id: item.call_id, output: `${item.name}: ok` }]
      : [],
  );
  return [{ role: 'user', content: question }, ...(output as OpenAI.Responses.ResponseInputItem[]), ...results];
}

describe('text', () => {
  it.each([
    [openaiModel, 'answer from gpt'],
    [anthropicModel, 'Hello from Claude.'],
    [geminiModel, 'Hello from Gemini.'],
  ])('answers %s with one Response object', async (model, text) => {
    const response = await harness().client.responses.create({ model, input: 'hi', instructions: 'Be brief.' });
    expect(response).toMatchObject({ object: 'response', status: 'completed', model });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe(text);
    expect(response.output).toEqual([expect.objectContaining({ type: 'message', role: 'assistant' })]);
    expect(response.usage?.total_tokens).toBeGreaterThan(0);
  });

  it.each([openaiModel, anthropicModel, geminiModel])('streams %s with OpenAI’s events in order', async (model) => {
    const stream = await harness().client.responses.create({ model, input: 'hi', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    const message = types.filter((type) => !type.startsWith('response.output_item') || type === types.at(-2));
    expect(message.slice(2)).toEqual([
      'response.content_part.added',
      ...types.filter((type) => type === 'response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.usage?.output_tokens).toBeGreaterThan(0);
  });

  it('gives responses.stream() its final response and text deltas', async () => {
    const stream = harness().client.responses.stream({ model: anthropicModel, input: 'hi' });
    let text = '';
    stream.on('response.output_text.delta', (event) => (text += event.delta));
    const final = await stream.finalResponse();
    expect(text).toBe('Hello, wörld! 👋');
    expect(final.output_text).toBe(text);
  });
});

describe('usage and cost', () => {
  it('writes one usage row with the cost, and the cost in usage', async () => {
    const { client, usage } = harness();
    const before = usage.length;
    harness().openai.script(
      answer('priced', { usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 } }),
    );
    const response = await client.responses.create({ model: openaiModel, input: 'hi' });
    expect(response.usage).toMatchObject({ input_tokens: 1000, output_tokens: 500, total_tokens: 1500, cost: 0.002 });
    expect(usage.slice(before)).toEqual([
      expect.objectContaining({ model: openaiModel, status: 200, streamed: false, prompt_tokens: 1000, cost: 0.002 }),
    ]);
  });

  it('names the app by its user agent when it sends no title', async () => {
    const { v1, usage } = harness();
    const client = new OpenAI({
      baseURL: v1,
      apiKey: callerSecret,
      maxRetries: 0,
      defaultHeaders: { 'user-agent': 'codex_exec/0.169.0' },
    });
    const before = usage.length;
    await client.responses.create({ model: openaiModel, input: 'hi', stream: false });
    expect(usage[before]).toMatchObject({ app_title: 'codex_exec/0.169.0', streamed: false });
  });
});
