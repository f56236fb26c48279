// The Anthropic adapter end to end: the official openai SDK → the real gateway → a fake Anthropic server speaking
// the Messages API (recorded SSE fixtures). Asserts both what the caller gets and what Anthropic received.

import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { usageOf } from '../../main/providers/test-support.js';
import type { ReasoningDetail } from '../../shared/api/index.js';
import { waitFor } from '../support/wait-for.js';
import { anthropicKey } from '../support/fake-anthropic.js';
import { collect, imageMessage, lastEvents, png, startProviderHarness, weatherTools } from './provider-harness.js';

const harness = await startProviderHarness();
afterAll(() => harness.close());

const tools = weatherTools({
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string' } },
});

function lastUpstreamBody(): Record<string, unknown> {
  return harness.anthropic.messageRequests().at(-1)!.body!;
}

describe('Anthropic through the gateway', () => {
  it('streams text with the role first, finish_reason and the usage (cache reads and writes) in the last chunk', async () => {
    const { chunks, last } = await harness.streamHello('claude/claude-sonnet-4-20250514', 'end_turn');
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(last.usage).toEqual(usageOf(4225, 12, { cached: 3000, cacheWrite: 1200 }));

    const sent = harness.anthropic.messageRequests().at(-1)!;
    expect(sent.headers['x-api-key']).toBe(anthropicKey);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 4096,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }],
      temperature: 1,
      stream: true,
    });
  });

  it('accepts a base URL that already ends in /v1', async () => {
    const completion = await harness.client.chat.completions.create({
      model: 'claude-v1/claude-sonnet-4-20250514',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: false,
    });
    expect(completion.choices[0]!.message.content).toBe('Hello from Claude.');
    expect(harness.anthropic.requests.every((request) => !request.url.startsWith('/v1/v1'))).toBe(true);
  });

  it('streams text and two tool calls that the SDK stream helper assembles intact', async () => {
    const stream = harness.client.chat.completions.stream({
      model: 'claude/claude-sonnet-4-20250514',
      messages: [{ role: 'user', content: 'Weather and time in Paris?' }],
      tools,
    });
    const indexes: number[] = [];
    stream.on('chunk', (chunk) => {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) if (call.id) indexes.push(call.index);
    });
    const completion = await stream.finalChatCompletion();
    expect(indexes).toEqual([0, 1]);
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Let me check both.');
    expect(
      choice.message.tool_calls!.map(
        (call) => call.type === 'function' && [call.id, call.function.name, JSON.parse(call.function.arguments)],
      ),
    ).toEqual([
      ['toolu_01T1x1fJ34qAmk2tNTrN7Up6', 'get_weather', { city: 'Paris', unit: 'c' }],
      ['toolu_01Bq3kKJmXw2Zp1EVaGbC8sT', 'get_time', { tz: 'Europe/Paris' }],
    ]);
    expect(lastUpstreamBody().tools).toEqual([
      { name: 'get_weather', input_schema: tools[0]!.type === 'function' && tools[0]!.function.parameters },
      { name: 'get_time', input_schema: { type: 'object', properties: { tz: { type: 'string' } } } },
    ]);
  });

  it('round-trips thinking: the second turn carries the exact signature and tool results back upstream', async () => {
    const first = await collect(
      await harness.client.chat.completions.create({
        model: 'claude/claude-sonnet-4-20250514',
        messages: [{ role: 'user', content: 'Weather and time in Paris?' }],
        tools,
        stream: true,
        reasoning: { effort: 'low' },
      } as OpenAI.ChatCompletionCreateParamsStreaming),
    );
    expect(lastUpstreamBody().thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const reasoning = first.map((chunk) => chunk.choices[0]?.delta.reasoning ?? '').join('');
    expect(reasoning).toBe('The user wants the weather and the time in Paris. I can call both tools at once.');
    // What a caller keeps: every reasoning_details item, in order, as it came.
    const details = first.flatMap((chunk) => chunk.choices[0]?.delta.reasoning_details ?? []);
    const signature = details.find((detail) => detail.signature)!.signature!;
    expect(signature).toMatch(/^EqQBCkgIBxABGAIiQL1lq0Yx/);
    const redacted = details.find((detail) => detail.type === 'reasoning.encrypted')!.data!;

    await collect(
      await harness.client.chat.completions.create({
        model: 'claude/claude-sonnet-4-20250514',
        tools,
        stream: true,
        reasoning: { effort: 'low' },
        messages: [
          { role: 'user', content: 'Weather and time in Paris?' },
          {
            role: 'assistant',
            content: 'Let me check both.',
            reasoning_details: details,
            tool_calls: [
              {
                id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city": "Paris", "unit": "c"}' },
              },
              {
                id: 'toolu_01Bq3kKJmXw2Zp1EVaGbC8sT',
                type: 'function',
                function: { name: 'get_time', arguments: '{"tz": "Europe/Paris"}' },
              },
            ],
          } as OpenAI.ChatCompletionAssistantMessageParam,
          { role: 'tool', tool_call_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', content: '{"temp": 21}' },
          { role: 'tool', tool_call_id: 'toolu_01Bq3kKJmXw2Zp1EVaGbC8sT', content: '12:00' },
        ],
      } as OpenAI.ChatCompletionCreateParamsStreaming),
    );
    const second = lastUpstreamBody();
    expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(second.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather and time in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: reasoning, signature },
          { type: 'redacted_thinking', data: redacted },
          { type: 'text', text: 'Let me check both.' },
          {
            type: 'tool_use',
            id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
            name: 'get_weather',
            input: { city: 'Paris', unit: 'c' },
          },
          { type: 'tool_use', id: 'toolu_01Bq3kKJmXw2Zp1EVaGbC8sT', name: 'get_time', input: { tz: 'Europe/Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', content: '{"temp": 21}' },
          { type: 'tool_result', tool_use_id: 'toolu_01Bq3kKJmXw2Zp1EVaGbC8sT', content: '12:00' },
        ],
      },
    ]);
  });

  it('sends images as base64 blocks, and answers 400 for an image to a model without vision', async () => {
    await harness.askAboutImage('claude/claude-sonnet-4-20250514');
    expect((lastUpstreamBody().messages as { content: unknown[] }[])[0]!.content[1]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: png },
    });

    const before = harness.anthropic.messageRequests().length;
    const error = await harness.failedChat('claude/claude-2.1', imageMessage());
    expect(error.status).toBe(400);
    expect(error.message).toContain(
      'Model "claude/claude-2.1" does not accept images (messages[0].content[0] is an image).',
    );
    expect(harness.anthropic.messageRequests()).toHaveLength(before);
  });

  it('answers a whole completion (stream = false) with tool calls, reasoning details and usage', async () => {
    const completion = await harness.client.chat.completions.create({
      model: 'claude/claude-sonnet-4-20250514',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools,
      stream: false,
    });
    expect(lastUpstreamBody()).not.toHaveProperty('stream');
    const message = completion.choices[0]!.message as OpenAI.ChatCompletionMessage & {
      reasoning_details?: ReasoningDetail[];
    };
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(message.tool_calls?.map((call) => call.type === 'function' && call.function.arguments)).toEqual([
      '{"city":"Paris"}',
      '{}',
    ]);
    expect(message.reasoning_details?.[0]).toMatchObject({ type: 'reasoning.text', format: 'anthropic-claude-v1' });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 1930,
      completion_tokens: 96,
      prompt_tokens_details: { cached_tokens: 1500 },
    });
  });
});

describe('Anthropic errors through the gateway', () => {
  it('turns a rejected provider key into a 502 naming the provider, never a 401', async () => {
    await harness.expectRejectedKey('claude-badkey/claude-sonnet-4-20250514', 401, {
      type: 'error',
      error: { type: 'authentication_error' },
    });
  });

  it('keeps 429 and its Retry-After', async () => {
    const response = await harness.rawQuestion('claude/claude-rate-limited');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('17');
    expect(response.json()).toMatchObject({ error: { code: 429, metadata: { provider_name: 'claude' } } });
  });

  it('turns 529 overloaded into 503', async () => {
    const error = await harness.failedChat('claude/claude-overloaded');
    expect(error.status).toBe(503);
    expect(error.message).toContain('Overloaded');
  });

  it('ends a stream with our error chunk on event: error after the 200; the SDK throws while iterating', async () => {
    const { content, failure } = await harness.streamUntilError('claude/claude-mid-stream-error', 'Tell a story');
    expect(content).toBe('Once upon');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain(
      'Provider "claude" is unavailable or overloaded (upstream 529): Overloaded',
    );

    const raw = await harness.rawQuestion('claude/claude-mid-stream-error');
    expect(raw.status).toBe(200);
    const { events, beforeDone } = lastEvents(raw.text);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(beforeDone).toMatchObject({
      error: { code: 503, metadata: { provider_name: 'claude' } },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    });
  });

  it('ends a stream with the error chunk when the connection drops before message_stop', async () => {
    const raw = await harness.rawQuestion('claude/claude-dropped');
    expect(raw.status).toBe(200);
    expect(raw.text).toContain('Hello, wörld');
    expect(lastEvents(raw.text).beforeDone).toMatchObject({
      error: { code: 502, metadata: { provider_name: 'claude' } },
      choices: [{ finish_reason: 'error' }],
    });
  });

  it('tears the upstream request down when the caller goes away mid-stream', async () => {
    const stream = await harness.client.chat.completions.create({
      model: 'claude/claude-slow',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    let content = '';
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      if (content.includes('👋')) break; // leaving the loop aborts the SDK's request
    }
    expect(content).toBe('Hello, wörld! 👋');
    const upstream = harness.anthropic.messageRequests().at(-1)!;
    expect(upstream.body?.model).toBe('claude-slow');
    await waitFor(() => upstream.closedEarly, { what: 'the upstream request to close' });
  });

  it('lists the provider models with their modalities', async () => {
    const models = await harness.client.models.list();
    const ids = models.data.map((model) => model.id);
    expect(ids).toContain('claude/claude-sonnet-4-20250514');
    expect(models.data.find((model) => model.id === 'claude/claude-2.1')).toMatchObject({
      architecture: { input_modalities: ['text'] },
    });
  });
});
