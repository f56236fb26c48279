// More of the clients people point at /v1, each as its documentation configures an OpenAI-compatible endpoint,
// against a scripted OpenAI-compatible upstream: the Vercel AI SDK 7 with @ai-sdk/openai-compatible, LangChain's
// ChatOpenAI, token.js and Mastra's Agent. Each omits `stream` when it wants one JSON object, sends tools and
// structured-output requests its own way, and reads usage: every call must come back as the client expects.

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ChatOpenAI } from '@langchain/openai';
import { Agent } from '@mastra/core/agent';
import { generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { TokenJS } from 'token.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callerSecret } from '../gateway/harness.js';
import { useResilienceGateway } from '../resilience/harness.js';
import { answer } from '../support/fake-openai.js';

const at = useResilienceGateway();

const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
const weatherCall = { id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' };

/** What the upstream received in its nth chat request. */
function sent(index: number) {
  return at.setup.primary.chatRequests()[index]!.body as Record<string, unknown> & {
    messages: { role: string; content?: unknown }[];
  };
}

describe('the AI SDK 6 with @ai-sdk/openai-compatible', () => {
  const provider = () =>
    createOpenAICompatible({ name: 'switchyard', baseURL: at.v1, apiKey: callerSecret, includeUsage: true });

  it('generateText gets one answer with usage; Output.object parses structured output', async () => {
    at.setup.primary.script(answer('plain answer', { usage }));
    const plain = await generateText({ model: provider()('primary/m1'), prompt: 'hi', maxRetries: 0 });
    expect(plain.text).toBe('plain answer');
    expect(plain.usage).toMatchObject({ inputTokens: 11, outputTokens: 7 });
    expect(sent(0).stream).not.toBe(true);

    at.setup.primary.script(answer('{"name":"Ada","born":1815}'));
    const structured = await generateText({
      model: provider()('primary/m1'),
      output: Output.object({ schema: z.object({ name: z.string(), born: z.number() }) }),
      prompt: 'who?',
      maxRetries: 0,
    });
    expect(structured.output).toEqual({ name: 'Ada', born: 1815 });
  });

  it('streamText runs a tool and answers with its result, in two steps', async () => {
    at.setup.primary.script(answer({ toolCalls: [weatherCall] }), answer('It is sunny in Paris.'));
    const result = streamText({
      model: provider()('primary/m1'),
      prompt: 'Weather in Paris?',
      tools: {
        get_weather: tool({
          description: 'The weather in a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => `sunny in ${city}`,
        }),
      },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(await result.text).toBe('It is sunny in Paris.');
    const toolMessage = sent(1).messages.find((message) => message.role === 'tool');
    expect(JSON.stringify(toolMessage?.content)).toContain('sunny in Paris');
    expect(sent(1).stream).toBe(true);
  });
});

describe('LangChain’s ChatOpenAI', () => {
  const chat = () =>
    new ChatOpenAI({ model: 'primary/m1', apiKey: callerSecret, configuration: { baseURL: at.v1 }, maxRetries: 0 });

  it('invoke gets one answer with usage; stream gets it in pieces', async () => {
    at.setup.primary.script(answer('hello from langchain', { usage }), answer({ content: ['hello ', 'again'] }));
    const message = await chat().invoke('hi');
    expect(message.content).toBe('hello from langchain');
    expect(message.usage_metadata).toMatchObject({ input_tokens: 11, output_tokens: 7, total_tokens: 18 });

    let text = '';
    for await (const chunk of await chat().stream('hi')) text += String(chunk.content);
    expect(text).toBe('hello again');
  });

  it('bindTools gets the tool call; withStructuredOutput parses its object', async () => {
    at.setup.primary.script(answer({ toolCalls: [weatherCall] }));
    const weather = { name: 'get_weather', description: 'The weather', schema: z.object({ city: z.string() }) };
    const called = await chat().bindTools([weather]).invoke('Weather in Paris?');
    expect(called.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);

    at.setup.primary.script(answer('{"city":"Paris","population":2100000}'));
    const City = z.object({ city: z.string(), population: z.number() });
    const parsed = await chat().withStructuredOutput(City).invoke('Paris?');
    expect(parsed).toEqual({ city: 'Paris', population: 2_100_000 });
  });
});

describe('token.js', () => {
  it('creates a completion and a stream through its openai-compatible provider', async () => {
    at.setup.primary.script(answer('hello from token.js', { usage }), answer({ content: ['streamed ', 'answer'] }));
    const client = new TokenJS({ baseURL: at.v1, apiKey: callerSecret });
    const completion = await client.chat.completions.create({
      provider: 'openai-compatible',
      model: 'primary/m1',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]!.message.content).toBe('hello from token.js');
    expect(completion.usage).toMatchObject(usage);

    const stream = await client.chat.completions.create({
      provider: 'openai-compatible',
      model: 'primary/m1',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('streamed answer');
  });
});

describe('Mastra’s Agent', () => {
  const agent = () =>
    new Agent({
      id: 'switchyard-test',
      name: 'switchyard-test',
      instructions: 'Answer briefly.',
      model: { providerId: 'switchyard', modelId: 'primary/m1', url: at.v1, apiKey: callerSecret },
    });

  it('generate gets one answer; stream gets it in pieces', async () => {
    at.setup.primary.script(answer('hello from mastra', { usage }), answer({ content: ['streamed ', 'by mastra'] }));
    const generated = await agent().generate('hi');
    expect(generated.text).toBe('hello from mastra');
    expect(sent(0).messages[0]).toMatchObject({ role: 'system', content: 'Answer briefly.' });

    const streamed = await agent().stream('hi');
    expect(await streamed.text).toBe('streamed by mastra');
  });
});
