// Streaming and whole completions through the real gateway, driven by the official openai SDK.

import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/use-harness.js';
import { rawRequest, startHarness, timeCall, upstreamSecret, usage as upstreamUsage, weatherCall } from './harness.js';

const harness = useHarness(startHarness);

const question: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Say hello' }];
const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  },
  {
    type: 'function',
    function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } },
  },
];

/** The chunks of `model`'s streamed answer to the question. */
async function streamed(
  model: string,
  options: Partial<OpenAI.ChatCompletionCreateParamsStreaming> = {},
): Promise<OpenAI.ChatCompletionChunk[]> {
  const stream = await harness().client.chat.completions.create({
    model,
    messages: question,
    stream: true,
    ...options,
  });
  const chunks: OpenAI.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('streaming', () => {
  it('streams text: one id, role first, usage in the final chunk with finish_reason', async () => {
    const chunks = await streamed('fake/gpt-test');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello, world!');
    const ids = new Set(chunks.map((chunk) => chunk.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^gen-/);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.slice(1).every((chunk) => chunk.choices[0]!.delta.role === undefined)).toBe(true);
    expect(chunks.every((chunk) => chunk.choices.length === 1)).toBe(true);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'fake/gpt-test')).toBe(
      true,
    );
    expect(chunks.every((chunk) => (chunk as unknown as { provider: string }).provider === 'fake')).toBe(true);
    const last = chunks.at(-1)!;
    expect(chunks.filter((chunk) => chunk.choices[0]!.finish_reason !== null)).toEqual([last]);
    expect(last.choices[0]!.finish_reason).toBe('stop');
    expect(last.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 3,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 2 },
    });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage == null)).toBe(true);
  });

  it('asks the upstream for usage and sends it the upstream model name and key', async () => {
    await streamed('fake/gpt-test');
    const sent = harness().upstream.chatRequests().at(-1)!;
    expect(sent.body).toMatchObject({ model: 'gpt-test', stream: true, stream_options: { include_usage: true } });
    expect(sent.headers.authorization).toBe(`Bearer ${upstreamSecret}`);
  });

  it('keeps usage in the final chunk, never a choices: [] chunk, when the caller asked include_usage', async () => {
    const chunks = await streamed('fake/gpt-test', { stream_options: { include_usage: true } });
    expect(chunks.every((chunk) => chunk.choices.length === 1)).toBe(true);
    expect(chunks.at(-1)!.usage?.total_tokens).toBe(upstreamUsage.total_tokens);
  });

  it('writes plain SSE: data lines only, the SSE headers, [DONE] last; stream is the default', async () => {
    const response = await rawRequest(harness(), '/chat/completions', {
      body: JSON.stringify({ model: 'fake/gpt-test', messages: question }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const events = response.text.split('\n\n').filter(Boolean);
    expect(events.every((event) => event.startsWith('data: ') && !event.includes('\n'))).toBe(true);
    expect(response.text).not.toMatch(/^event:/m);
    expect(response.text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('streams two parallel tool calls that the SDK stream helper assembles', async () => {
    const stream = harness().client.chat.completions.stream({
      model: 'fake/tool-model',
      messages: [{ role: 'user', content: 'Weather and time in Paris?' }],
      tools,
    });
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.role).toBe('assistant');
    expect(choice.message.tool_calls).toEqual([
      { id: weatherCall.id, type: 'function', function: { name: weatherCall.name, arguments: weatherCall.arguments } },
      { id: timeCall.id, type: 'function', function: { name: timeCall.name, arguments: timeCall.arguments } },
    ]);
    expect(completion.usage?.prompt_tokens).toBe(12);
  });

  it('streams reasoning_content from upstream as delta.reasoning', async () => {
    const chunks = await streamed('fake/reasoning-model');
    const deltas = chunks.map((chunk) => chunk.choices[0]!.delta as { reasoning?: string; content?: string });
    expect(deltas.map((delta) => delta.reasoning ?? '').join('')).toBe('Thinking hard.');
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe('42');
  });

  it('turns an upstream that answers a stream request with JSON into a proper stream', async () => {
    const chunks = await streamed('fake/json-answer');
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('plain JSON');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });
});

describe('whole completions (stream: false)', () => {
  it('answers text in the chat.completion shape', async () => {
    const completion = await harness().client.chat.completions.create({
      model: 'fake/gpt-test',
      messages: question,
      stream: false,
    });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'fake/gpt-test',
      provider: 'fake',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello, world!' },
          finish_reason: 'stop',
          native_finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, prompt_tokens_details: { cached_tokens: 4 } },
    });
    expect(completion.id).toMatch(/^gen-/);
    expect(harness().upstream.chatRequests().at(-1)!.body).toMatchObject({ model: 'gpt-test', stream: false });
    expect(harness().upstream.chatRequests().at(-1)!.body).not.toHaveProperty('stream_options');
  });

  it('answers tool calls', async () => {
    const completion = await harness().client.chat.completions.create({
      model: 'fake/tool-model',
      messages: question,
      tools,
      stream: false,
    });
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]!.message.content).toBeNull();
    expect(completion.choices[0]!.message.tool_calls?.map((call) => call.id)).toEqual([weatherCall.id, timeCall.id]);
  });

  it('carries a tool-result round trip to the upstream intact', async () => {
    const first = await harness().client.chat.completions.create({
      model: 'fake/tool-model',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools,
      stream: false,
    });
    const assistant = first.choices[0]!.message;
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: assistant.tool_calls },
      { role: 'tool', tool_call_id: weatherCall.id, content: JSON.stringify({ temperature: 21, unit: 'C' }) },
      { role: 'tool', tool_call_id: timeCall.id, content: '{"time":"14:00"}' },
    ];
    const second = await harness().client.chat.completions.create({
      model: 'fake/gpt-test',
      messages,
      tools,
      tool_choice: 'auto',
      temperature: 0.2,
      stream: false,
      // vendor extras are tolerated but not forwarded
      ...({ provider: { order: ['x'] }, transforms: [] } as object),
    });
    expect(second.choices[0]!.message.content).toBe('Hello, world!');
    const received = harness().upstream.chatRequests().at(-1)!;
    expect(received.headers.authorization).toBe(`Bearer ${upstreamSecret}`);
    expect(received.body).toEqual({
      model: 'gpt-test',
      messages,
      tools,
      tool_choice: 'auto',
      temperature: 0.2,
      stream: false,
    });
  });
});
