// Anthropic Messages driven by the official @anthropic-ai/sdk: natively to an anthropic-kind upstream (the body and
// the protocol headers pass through untouched but for the model), and translated to openai- and google-kind ones —
// text, tool use over two turns, thinking with signatures round-tripped, images, a document, count_tokens, the
// model list, errors before and during the stream, usage and cost in the usage row.

import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use-harness.js';
import { anthropicFixture } from '../../support/fake-anthropic.js';
import {
  anthropicModel,
  callerSecret,
  geminiModel,
  openaiModel,
  startAnthropicHarness,
  type AnthropicHarness,
} from './harness.js';

const harness = useHarness(startAnthropicHarness);

const weatherTool = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};
const timeTool = {
  name: 'get_time',
  input_schema: { type: 'object' as const, properties: { tz: { type: 'string' } } },
};
const question = [{ role: 'user' as const, content: 'Weather and time in Paris?' }];
// A 1×1 transparent PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const pdf = Buffer.from('%PDF-1.4 a tiny document').toString('base64');

function lastRow(setup: AnthropicHarness) {
  return setup.usage.at(-1)!;
}

describe('natively to an anthropic-kind provider', () => {
  it('passes the body through with the upstream model, forwards the version and betas, and relabels the answer', async () => {
    const setup = harness();
    const body = {
      model: anthropicModel,
      max_tokens: 1000,
      system: [{ type: 'text' as const, text: 'Be brief.', cache_control: { type: 'ephemeral' as const } }],
      messages: question,
      tools: [weatherTool, timeTool],
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      metadata: { user_id: 'user-1' },
    };
    const message = await setup.client.messages.create(body, {
      headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' },
    });
    const fixture = JSON.parse(anthropicFixture('anthropic-message.json')) as { content: unknown[] };
    expect(message.model).toBe(anthropicModel);
    expect(message.content).toEqual(fixture.content);
    const received = setup.anthropic.messageRequests().at(-1)!;
    expect(received.body).toEqual({ ...body, model: 'claude-sonnet-4-20250514' });
    expect(received.headers['anthropic-version']).toBe('2026-10-21'); // the SDK's, not the adapter's 2023-06-01
    expect(received.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(received.headers['x-api-key']).not.toBe(callerSecret);
    expect(lastRow(setup)).toMatchObject({
      provider: 'claude',
      model: anthropicModel,
      status: 200,
      finish_reason: 'tool_use',
      prompt_tokens: 410 + 20 + 1500,
      completion_tokens: 96,
    });
    expect(lastRow(setup).cost).toBeCloseTo((1930 * 1_000 + 96 * 2_000) / 1e9, 12);
    expect(lastRow(setup).app_title).toMatch(/^Anthropic\/JS /);
  });

  it('streams the upstream’s events byte for byte (the model relabelled) and the SDK assembles the message', async () => {
    const setup = harness();
    const stream = setup.client.messages.stream({
      model: anthropicModel,
      max_tokens: 2000,
      messages: question,
      tools: [weatherTool, timeTool],
    });
    const message = await stream.finalMessage();
    expect(message.model).toBe(anthropicModel);
    expect(message.content.map((block) => block.type)).toEqual([
      'thinking',
      'redacted_thinking',
      'text',
      'tool_use',
      'tool_use',
    ]);
    expect(message.content[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/^EqQB/) });
    expect(lastRow(setup)).toMatchObject({
      provider: 'claude',
      streamed: true,
      status: 200,
      finish_reason: 'tool_use',
    });

    const response = await fetch(`${setup.root}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': callerSecret, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: anthropicModel,
        max_tokens: 2000,
        messages: question,
        tools: [weatherTool],
        stream: true,
      }),
    });
    const fixture = anthropicFixture('anthropic-thinking-tool-calls.sse.txt').replace(
      '"model":"claude-sonnet-4-20250514"',
      `"model":"${anthropicModel}"`,
    );
    expect(await response.text()).toBe(fixture);
  });

  it('counts tokens with the upstream’s own count_tokens and writes no usage row', async () => {
    const setup = harness();
    const rows = setup.usage.length;
    const counted = await setup.client.messages.countTokens({
      model: anthropicModel,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'one two three four' }] }],
    });
    expect(counted.input_tokens).toBe(4);
    expect(setup.anthropic.requests.at(-1)).toMatchObject({
      url: '/v1/messages/count_tokens',
      body: { model: 'claude-sonnet-4-20250514' },
    });
    expect(setup.usage).toHaveLength(rows);
  });

  it('ends a stream the upstream breaks with the error event, which the SDK raises', async () => {
    const setup = harness();
    setup.anthropic.script(
      (await import('../../support/fake-anthropic.js')).answer({ stream: 'anthropic-overloaded-mid-stream.sse.txt' }),
    );
    const stream = setup.client.messages.stream({ model: anthropicModel, max_tokens: 100, messages: question });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
    expect(lastRow(setup)).toMatchObject({ status: 200, finish_reason: 'error' });
  });
});

describe('translated to an openai-kind provider', () => {
  it('answers a Message whole, with usage and cost', async () => {
    const setup = harness();
    const message = await setup.client.messages.create({ model: openaiModel, max_tokens: 100, messages: question });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: openaiModel,
      content: [{ type: 'text', text: 'answer from gpt' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 30, output_tokens: 4 },
    });
    expect(message.id).toMatch(/^msg_/);
    expect(lastRow(setup)).toMatchObject({ provider: 'oai', status: 200, prompt_tokens: 30, completion_tokens: 4 });
    expect(lastRow(setup).cost).toBeCloseTo((30 * 1_000 + 4 * 2_000) / 1e9, 12);
    const sent = setup.openai.chatRequests().at(-1)!.body!;
    expect(sent).toMatchObject({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user' }] });
  });

  it('runs a tool over two turns, streamed, with the reasoning as a thinking block', async () => {
    const setup = harness();
    const first = await setup.client.messages
      .stream({ model: openaiModel, max_tokens: 500, messages: question, tools: [weatherTool] })
      .finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'thinking', thinking: 'Thinking about the weather.', signature: '' },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'call_weather_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(first.usage).toMatchObject({ input_tokens: 40, output_tokens: 12 });

    const second = await setup.client.messages.create({
      model: openaiModel,
      max_tokens: 500,
      tools: [weatherTool],
      messages: [
        ...question,
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_weather_1', content: [{ type: 'text', text: '18°C' }] }],
        },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'answer from gpt' }]);
    const sent = setup.openai.chatRequests().at(-1)!.body as { messages: Record<string, unknown>[]; tools: unknown[] };
    expect(sent.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'call_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_weather_1', content: '18°C' },
    ]);
    expect(sent.tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: 'The weather in a city', parameters: weatherTool.input_schema },
      },
    ]);
  });

  it('sends images and a PDF document as content parts', async () => {
    const setup = harness();
    await setup.client.messages.create({
      model: openaiModel,
      max_tokens: 100,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf }, title: 'a.pdf' },
            { type: 'text', text: 'What is this?' },
          ],
        },
      ],
    });
    const sent = setup.openai.chatRequests().at(-1)!.body as { messages: { content: unknown }[] };
    expect(sent.messages[0]!.content).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
      { type: 'file', file: { file_data: `data:application/pdf;base64,${pdf}`, filename: 'a.pdf' } },
      { type: 'text', text: 'What is this?' },
    ]);
  });

  it('counts tokens with the gateway’s estimate', async () => {
    const setup = harness();
    const counted = await setup.client.messages.countTokens({ model: openaiModel, messages: question });
    expect(counted.input_tokens).toBeGreaterThan(5);
    expect(counted.input_tokens).toBeLessThan(40);
  });

  it('ends a stream that fails mid-way with the error event, which the SDK raises with our message', async () => {
    const setup = harness();
    const { answer } = await import('../../support/fake-openai.js');
    setup.openai.script(answer({ content: ['par', 'tial'], ending: 'garbage' }));
    const stream = setup.client.messages.stream({ model: openaiModel, max_tokens: 100, messages: question });
    await expect(stream.finalMessage()).rejects.toThrow(/not JSON/);
    expect(lastRow(setup)).toMatchObject({ status: 200, finish_reason: 'error' });
  });
});

describe('translated to a google-kind provider', () => {
  it('round-trips Gemini’s thought signatures through thinking blocks over two turns', async () => {
    const setup = harness();
    const first = await setup.client.messages
      .stream({ model: geminiModel, max_tokens: 500, messages: question, tools: [weatherTool, timeTool] })
      .finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const toolUses = first.content.filter((block) => block.type === 'tool_use');
    expect(toolUses.map((block) => block.name)).toEqual(['get_weather', 'get_time']);
    expect(first.content.some((block) => block.type === 'thinking' && block.signature.startsWith('sy1.'))).toBe(true);

    await setup.client.messages.create({
      model: geminiModel,
      max_tokens: 500,
      tools: [weatherTool, timeTool],
      messages: [
        ...question,
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: toolUses.map((block) => ({ type: 'tool_result' as const, tool_use_id: block.id, content: 'ok' })),
        },
      ],
    });
    const sent = setup.gemini.generateRequests().at(-1)!.body as {
      contents: { role: string; parts: Record<string, unknown>[] }[];
    };
    const modelTurn = sent.contents.find((content) => content.role === 'model')!;
    expect(modelTurn.parts[0]).toMatchObject({
      functionCall: { name: 'get_weather' },
      thoughtSignature: expect.stringMatching(/^CtwDAdHtim9f/),
    });
  });
});

describe('errors in Anthropic’s shape, raised by the SDK as its own classes', () => {
  it('401 for a wrong key', async () => {
    const setup = harness();
    const client = new Anthropic({ baseURL: setup.root, apiKey: 'sk-sy-v1-wrong', maxRetries: 0 });
    const failure = client.messages.create({ model: openaiModel, max_tokens: 10, messages: question });
    await expect(failure).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    await expect(failure).rejects.toThrow(/Invalid or missing API key/);
  });

  it('404 for a model no provider serves', async () => {
    const setup = harness();
    const failure = setup.client.messages.create({ model: 'nobody/none', max_tokens: 10, messages: question });
    await expect(failure).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('400 naming the Anthropic field for a bad body', async () => {
    const setup = harness();
    const failure = setup.client.messages.create({
      model: openaiModel,
      max_tokens: 10,
      messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } }] },
      ],
    });
    await expect(failure).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(failure).rejects.toThrow(/messages\[0\]\.content\[0\]\.source\.data/);
  });
});

describe('under /api/v1 and for count_tokens', () => {
  it('answers /api/v1/messages as /v1/messages: one Message when stream is left out', async () => {
    const setup = harness();
    const response = await fetch(`${setup.root}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${callerSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: openaiModel, max_tokens: 10, messages: question }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'answer from gpt' }],
    });
  });

  it('refuses to count for a model no provider serves, in Anthropic’s shape', async () => {
    const setup = harness();
    const failure = setup.client.messages.countTokens({ model: 'nobody/none', messages: question });
    await expect(failure).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });
});

describe('the model list in Anthropic’s shape', () => {
  it('answers models.list() with type, id, display_name and created_at', async () => {
    const setup = harness();
    const page = await setup.client.models.list();
    const ids = page.data.map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining([anthropicModel, openaiModel, geminiModel]));
    expect(page.data[0]).toMatchObject({
      type: 'model',
      display_name: expect.any(String),
      created_at: expect.any(String),
    });
  });
});
