// POST /v1/responses driven by the official openai SDK (`client.responses.create`, whole and streamed, and
// `client.responses.stream`) against an OpenAI-, an Anthropic- and a Google-kind upstream: text, function and
// custom tools over two turns, reasoning signatures round-tripped through encrypted_content, images, JSON schema
// output, errors before and during the stream, usage and cost.

import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { callerSecret, sdkError } from '../../gateway/harness.js';
import { answer, fail } from '../../support/fake-openai.js';
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

describe('function tools over two turns, reasoning signatures round-tripped', () => {
  it('hands Anthropic’s thinking signature and redacted thinking back unchanged (streamed)', async () => {
    const { client, anthropic } = harness();
    const asked = {
      model: anthropicModel,
      tools: weatherTools,
      reasoning: { effort: 'low' as const, summary: 'auto' as const },
      include: ['reasoning.encrypted_content' as const],
      store: false,
    };
    const stream = client.responses.stream({ ...asked, input: 'Weather and time in Paris?' });
    const first = await stream.finalResponse();
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call']);
    const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.summary[0]?.text).toContain('The user wants the weather');
    expect(reasoning.encrypted_content).toMatch(/^sy1\./);
    expect(first.output[2]).toMatchObject({ name: 'get_weather', call_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6' });

    const second = await client.responses.create({
      ...asked,
      input: nextTurn('Weather and time in Paris?', first.output),
    });
    expect(second.output_text).toBe('Hello from Claude.');
    const sent = anthropic.requests.at(-1)!.body as {
      messages: { role: string; content: Record<string, unknown>[] }[];
    };
    const assistant = sent.messages[1]!;
    expect(assistant.role).toBe('assistant');
    expect(assistant.content.slice(0, 2)).toEqual([
      expect.objectContaining({
        type: 'thinking',
        signature:
          'EqQBCkgIBxABGAIiQL1lq0Yx7q9mO3t0A1wVHzmhGcFAkoSjO4P2Q+z1+dYhVQ5mYbKx8l0p8d7Ub6rGfcS0c0Wm9s6E9YlUQ1bZr2sSDGYlG0vY2m1u3Gk5/hoMQzkLq3l6oZ9Bq7T2IjB2pX8=',
      }),
      {
        type: 'redacted_thinking',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB4URj/eDWfqAG1uQ==',
      },
    ]);
    expect(sent.messages[2]!.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6' }),
      expect.objectContaining({ type: 'tool_result' }),
    ]);
  });

  it('hands Gemini’s thought signature back on its function call (whole answers)', async () => {
    const { client, gemini } = harness();
    const asked = { model: geminiModel, tools: weatherTools, include: ['reasoning.encrypted_content' as const] };
    const first = await client.responses.create({ ...asked, input: 'Weather in Paris?' });
    const calls = first.output.filter((item) => item.type === 'function_call');
    expect(calls.map((call) => call.name)).toContain('get_weather');
    expect(first.output.some((item) => item.type === 'reasoning' && item.encrypted_content)).toBe(true);

    await client.responses.create({ ...asked, input: nextTurn('Weather in Paris?', first.output) });
    const sent = gemini.generateRequests().at(-1)!.body as {
      contents: { role: string; parts: Record<string, unknown>[] }[];
    };
    const model = sent.contents.find((content) => content.role === 'model')!;
    const signature = 'CiwBVKhc7vB+vaaq6rA='; // gemini-response.json's, on its functionCall part
    expect(model.parts).toContainEqual(
      expect.objectContaining({ functionCall: expect.anything(), thoughtSignature: signature }),
    );
  });

  it('streams an OpenAI-kind tool call’s arguments and takes its output back', async () => {
    const { client, openai } = harness();
    openai.script(
      answer({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }),
      answer('Sunny.'),
    );
    const stream = await client.responses.create({
      model: openaiModel,
      input: 'Weather?',
      tools: weatherTools,
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const deltas = events.filter((event) => event.type === 'response.function_call_arguments.delta');
    expect(deltas.map((event) => event.delta).join('')).toBe('{"city":"Paris"}');
    const done = events.find((event) => event.type === 'response.output_item.done')!;
    expect(done.item).toMatchObject({ type: 'function_call', call_id: 'call_1', arguments: '{"city":"Paris"}' });
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;

    const second = await client.responses.create({
      model: openaiModel,
      tools: weatherTools,
      input: nextTurn('Weather?', completed.response.output),
    });
    expect(second.output_text).toBe('Sunny.');
    const sent = openai.chatRequests().at(-1)!.body as { messages: Record<string, unknown>[]; tools: unknown[] };
    expect(sent.messages.slice(1)).toEqual([
      expect.objectContaining({
        role: 'assistant',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      }),
      { role: 'tool', tool_call_id: 'call_1', content: 'get_weather: ok' },
    ]);
  });
});

describe('custom (freeform) tools', () => {
  const applyPatch: OpenAI.Responses.CustomTool = {
    type: 'custom',
    name: 'apply_patch',
    description: 'Edit files.',
    format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch" /(.|\\n)*/' },
  };
  const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch';

  it('offers the tool as a function of one string and turns the call into a custom_tool_call', async () => {
    const { client, openai } = harness();
    openai.script(
      answer({ toolCalls: [{ id: 'call_p', name: 'apply_patch', arguments: JSON.stringify({ input: patch }) }] }),
      answer('Done.'),
    );
    const stream = await client.responses.create({
      model: openaiModel,
      input: 'Add a.txt',
      tools: [applyPatch],
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const offered = (openai.chatRequests().at(-1)!.body as { tools: { function: Record<string, unknown> }[] })
      .tools[0]!;
    expect(offered.function).toMatchObject({ name: 'apply_patch', parameters: { required: ['input'] } });
    expect(offered.function.description).toContain('lark');
    const inputDone = events.find((event) => event.type === 'response.custom_tool_call_input.done');
    expect(inputDone).toMatchObject({ input: patch });
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    const call = completed.response.output[0] as OpenAI.Responses.ResponseCustomToolCall;
    expect(call).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', call_id: 'call_p', input: patch });

    await client.responses.create({
      model: openaiModel,
      tools: [applyPatch],
      input: [
        { role: 'user', content: 'Add a.txt' },
        { type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: patch },
        { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Success.' },
      ],
    });
    const sent = openai.chatRequests().at(-1)!.body as {
      messages: { tool_calls?: { function: { arguments: string } }[] }[];
    };
    expect(JSON.parse(sent.messages[1]!.tool_calls![0]!.function.arguments)).toEqual({ input: patch });
    expect(sent.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_p', content: 'Success.' });
  });
});

describe('images and structured output', () => {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

  it('sends an input_image to the upstream as the provider’s image', async () => {
    const { client, anthropic } = harness();
    await client.responses.create({
      model: anthropicModel,
      input: [
        { role: 'user', content: [{ type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto' }] },
      ],
    });
    const sent = anthropic.requests.at(-1)!.body as { messages: { content: Record<string, unknown>[] }[] };
    expect(sent.messages[0]!.content[0]).toMatchObject({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: png },
    });
  });

  it('asks for a JSON schema and parses the answer with responses.parse()', async () => {
    const { client, openai } = harness();
    openai.script(answer('{"city":"Paris"}'));
    const response = await client.responses.parse({
      model: openaiModel,
      input: 'Where?',
      text: {
        format: {
          type: 'json_schema',
          name: 'place',
          strict: true,
          schema: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(response.output_parsed).toEqual({ city: 'Paris' });
    const sent = openai.chatRequests().at(-1)!.body as { response_format: unknown };
    expect(sent.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'place', strict: true } });
  });
});

describe('errors', () => {
  it('answers a wrong key with OpenAI’s 401, which the SDK raises as AuthenticationError', async () => {
    const client = new OpenAI({ baseURL: harness().v1, apiKey: 'sk-sy-v1-wrong', maxRetries: 0 });
    const error = await sdkError(client.responses.create({ model: openaiModel, input: 'hi' }));
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.error).toMatchObject({ message: 'Invalid or missing API key.', type: 'authentication_error' });
  });

  it('answers an unknown model with a 404 naming it', async () => {
    const error = await sdkError(
      harness().client.responses.create({ model: 'nowhere/model', input: 'hi', stream: true }),
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.message).toContain('nowhere');
  });

  it('names the Responses field of bad input, never a chat field', async () => {
    const error = await sdkError(
      harness().client.responses.create({
        model: openaiModel,
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'see' },
              { type: 'input_image', image_url: 'ftp://x', detail: 'auto' },
            ],
          },
        ],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error).toMatchObject({ type: 'invalid_request_error' });
    expect(error.message).toContain('input[0].content[1].image_url must be a data URL');
  });

  it.each([
    [{ previous_response_id: 'resp_1' }, 'previous_response_id is not supported: Switchyard keeps no responses'],
    [{ input: [{ type: 'input_image', file_id: 'file_1' }] }, 'input[0].type must be'],
    [
      { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1', detail: 'auto' }] }] },
      'input[0].content[0].file_id is not supported',
    ],
  ])('refuses %j with a 400 saying why', async (fields, message) => {
    const error = await sdkError(
      harness().client.responses.create({
        model: openaiModel,
        input: 'hi',
        ...fields,
      } as OpenAI.Responses.ResponseCreateParamsNonStreaming),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });

  it('passes over Codex’s offline web search tool', async () => {
    const { client, openai } = harness();
    await client.responses.create({
      model: openaiModel,
      input: 'hi',
      tools: [{ type: 'web_search', external_web_access: false } as unknown as OpenAI.Responses.Tool, ...weatherTools],
    });
    const sent = openai.chatRequests().at(-1)!.body as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(['get_weather', 'get_time']);
  });

  it('answers an upstream failure before the stream in OpenAI’s shape with its status', async () => {
    harness().openai.script(fail(429, { headers: { 'retry-after': '0' } }), fail(429), fail(429), fail(429));
    const error = await sdkError(harness().client.responses.create({ model: openaiModel, input: 'hi', stream: true }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.error).toMatchObject({ type: 'rate_limit_error' });
  });

  it('ends a stream that fails mid-way with response.failed', async () => {
    const { client, openai, usage } = harness();
    openai.script(answer('partial answer', { ending: 'garbage' }));
    const before = usage.length;
    const stream = await client.responses.create({ model: openaiModel, input: 'hi', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const failed = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(failed.type).toBe('response.failed');
    expect(failed.response.status).toBe('failed');
    expect(failed.response.error).toMatchObject({ code: 'server_error', message: expect.any(String) });
    expect(events.some((event) => event.type === 'response.output_text.delta')).toBe(true);
    expect(usage[before]).toMatchObject({ status: 200, finish_reason: 'error' });
  });

  it('says a stream cut by the token limit is incomplete', async () => {
    harness().openai.script(answer('cut', { finishReason: 'length' }));
    const stream = harness().client.responses.stream({ model: openaiModel, input: 'hi', max_output_tokens: 16 });
    const final = await stream.finalResponse();
    expect(final.status).toBe('incomplete');
    expect(final.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(
      (harness().openai.chatRequests().at(-1)!.body as { max_completion_tokens: number }).max_completion_tokens,
    ).toBe(16);
  });
});
