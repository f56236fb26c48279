// The Vercel AI SDK (`ai` 5) with `@openrouter/ai-sdk-provider` pointed at the gateway, against a scripted
// OpenAI-compatible upstream: text, tool calls (a tool() with a zod schema, run and answered), usage and cost,
// reasoning, the `models` fallback, and how the provider surfaces our mid-stream error chunk.

import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { generateText, stepCountIs, streamText, tool, type TextStreamPart, type ToolSet } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callerSecret } from '../gateway/harness.js';
import { dropAfterFirstChunk, startResilienceGateway, type ResilienceGateway } from '../resilience/harness.js';
import { answer } from '../support/fake-openai.js';

let setup: ResilienceGateway;
let openrouter: ReturnType<typeof createOpenRouter>;

beforeEach(async () => {
  setup = await startResilienceGateway();
  // No client retries: a failure must show as it is, not after the SDK's 2 s backoffs.
  openrouter = createOpenRouter({ baseURL: setup.baseURL, apiKey: callerSecret });
});

afterEach(async () => {
  await setup.close();
});

const costlyUsage = {
  prompt_tokens: 120,
  completion_tokens: 30,
  total_tokens: 150,
  prompt_tokens_details: { cached_tokens: 100 },
  completion_tokens_details: { reasoning_tokens: 12 },
  cost: 0.00042,
};

/** Reasoning with OpenRouter-style reasoning_details (text pieces, then the signature), then the answer. */
const reasoningStep = answer({
  deltas: [
    ...['Thinking', ' hard.'].map((text) => ({
      reasoning: text,
      reasoning_details: [{ type: 'reasoning.text', text, format: 'anthropic-claude-v1', index: 0 }],
    })),
    { reasoning_details: [{ type: 'reasoning.text', signature: 'sig-abc', format: 'anthropic-claude-v1', index: 0 }] },
  ],
  content: ['42'],
  usage: costlyUsage,
});

/** A call of get_weather in the OpenAI convention: id and name first, the arguments in fragments. */
const toolCallStep = answer({
  toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: '{"city": "Paris"}' }],
  usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 },
});

describe('@openrouter/ai-sdk-provider through the gateway', () => {
  it('streams text, with the response model, finish reason and usage', async () => {
    const result = streamText({ model: openrouter('primary/m1'), prompt: 'hi', maxRetries: 0 });
    let text = '';
    for await (const piece of result.textStream) text += piece;
    expect(text).toBe('answer from primary');
    expect(await result.finishReason).toBe('stop');
    expect(await result.usage).toMatchObject({ inputTokens: 5, outputTokens: 2, totalTokens: 7 });
    expect((await result.response).modelId).toBe('primary/m1');
    expect(setup.primary.chatRequests()[0]!.body).toMatchObject({ model: 'm1', stream: true });
  });

  it('carries reasoning text, reasoning_details, cached tokens and usage.cost', async () => {
    setup.primary.script(reasoningStep);
    const result = streamText({ model: openrouter('primary/m1'), prompt: 'think', maxRetries: 0 });
    expect(await result.text).toBe('42');
    expect(await result.reasoningText).toBe('Thinking hard.');
    expect(await result.usage).toMatchObject({
      inputTokens: 120,
      outputTokens: 30,
      inputTokenDetails: { cacheReadTokens: 100 },
      outputTokenDetails: { reasoningTokens: 12 },
    });
    const metadata = (await result.providerMetadata) as { openrouter: Record<string, unknown> };
    expect(metadata.openrouter.usage).toMatchObject({ cost: 0.00042, promptTokensDetails: { cachedTokens: 100 } });
    expect(metadata.openrouter.reasoning_details).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'reasoning.text', signature: 'sig-abc' })]),
    );
  });

  it('streams a tool call the SDK runs, then sends the result back and gets the answer', async () => {
    const calls: { city: string }[] = [];
    const tools = {
      get_weather: tool({
        description: 'The weather in a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          calls.push({ city });
          return { city, forecast: 'sunny', celsius: 21 };
        },
      }),
    } satisfies ToolSet;
    setup.primary.script(toolCallStep);
    const result = streamText({
      model: openrouter('primary/m1'),
      prompt: 'weather in Paris?',
      tools,
      stopWhen: stepCountIs(2),
      maxRetries: 0,
    });
    const parts: TextStreamPart<typeof tools>[] = [];
    for await (const part of result.fullStream) parts.push(part);
    expect(calls).toEqual([{ city: 'Paris' }]);
    const steps = await result.steps;
    expect(steps[0]!.finishReason).toBe('tool-calls');
    expect(steps[0]!.toolCalls).toMatchObject([
      { toolCallId: 'call_w1', toolName: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(parts.some((part) => part.type === 'tool-input-delta')).toBe(true);
    expect(await result.text).toBe('answer from primary');

    // The second request carries the assistant's tool call and the tool's result, as the spec's tool loop says.
    const second = setup.primary.chatRequests()[1]!.body as {
      messages: { role: string; content: unknown; tool_calls?: unknown; tool_call_id?: string }[];
    };
    expect(setup.primary.chatRequests()[0]!.body?.tools).toEqual([
      expect.objectContaining({
        type: 'function',
        function: expect.objectContaining({
          name: 'get_weather',
          parameters: expect.objectContaining({ type: 'object', properties: { city: { type: 'string' } } }),
        }),
      }),
    ]);
    const assistant = second.messages.find((message) => message.role === 'assistant')!;
    expect(assistant.tool_calls).toEqual([
      { id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
    const toolMessage = second.messages.find((message) => message.role === 'tool')!;
    expect(toolMessage.tool_call_id).toBe('call_w1');
    expect(JSON.parse(toolMessage.content as string)).toEqual({ city: 'Paris', forecast: 'sunny', celsius: 21 });
  });

  it('surfaces our mid-stream error chunk (it has choices) as an error part and finish reason "error"', async () => {
    setup.primary.script(dropAfterFirstChunk());
    const errors: unknown[] = [];
    const result = streamText({
      model: openrouter('primary/m1'),
      prompt: 'hi',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const parts: TextStreamPart<ToolSet>[] = [];
    for await (const part of result.fullStream) parts.push(part);
    const text = parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('');
    expect(text).toBe('Par');
    const errorPart = parts.find((part) => part.type === 'error');
    // AI SDK 7 wraps the chunk's error object in an error of its own, the chunk's object as its `data`.
    expect(errorPart?.type).toBe('error');
    expect((errorPart as { error: { data: unknown } }).error.data).toEqual({
      code: 502,
      message: expect.stringContaining('The connection to provider "primary" was lost'),
      metadata: { provider_name: 'primary' },
    });
    expect(errors).toHaveLength(1);
    expect(await result.finishReason).toBe('error');
  });

  it('ends textStream quietly on that error chunk: only onError, fullStream and finishReason tell', async () => {
    setup.primary.script(dropAfterFirstChunk());
    const result = streamText({ model: openrouter('primary/m1'), prompt: 'hi', maxRetries: 0, onError: () => {} });
    let text = '';
    for await (const piece of result.textStream) text += piece;
    expect(text).toBe('Par');
    expect(await result.finishReason).toBe('error');
  });

  it('follows the models fallback list given as a model setting; the response names the fallback', async () => {
    const result = streamText({
      model: openrouter('down/m1', { models: ['backup/m2'] }),
      prompt: 'hi',
      maxRetries: 0,
    });
    expect(await result.text).toBe('answer from backup');
    expect((await result.response).modelId).toBe('backup/m2');
  });
});

describe('generateText and the spec’s `stream` default', () => {
  it('works when the client asks stream: false (extraBody), as the provider itself never sends `stream`', async () => {
    const explicit = createOpenRouter({ baseURL: setup.baseURL, apiKey: callerSecret, extraBody: { stream: false } });
    const result = await generateText({ model: explicit('primary/m1'), prompt: 'hi', maxRetries: 0 });
    expect(result.text).toBe('answer from primary');
    expect(result.usage).toMatchObject({ inputTokens: 5, outputTokens: 2 });
    expect(result.response.modelId).toBe('primary/m1');
    // The explicit `stream: false` does not leak into streamed calls, which send stream: true after it.
    const streamed = streamText({ model: explicit('primary/m1'), prompt: 'hi', maxRetries: 0 });
    expect(await streamed.text).toBe('answer from primary');
  });

  it('fails without it: the provider omits `stream`, the spec defaults it to true, the SSE is not JSON', async () => {
    await expect(generateText({ model: openrouter('primary/m1'), prompt: 'hi', maxRetries: 0 })).rejects.toThrow(
      /Invalid JSON response/,
    );
    expect(setup.primary.chatRequests()[0]!.body).toMatchObject({ stream: true });
  });
});
