// Hosted tools of the Responses API (OpenAI runs them on its servers) through the official openai SDK's
// `client.responses.create`, against one fake upstream of each kind the gateway routes to: `web_search` becomes
// Anthropic's web search tool, Gemini's Google Search grounding and OpenRouter's web plugin; a provider without web
// search gets it left out, and so does every other hosted tool anywhere, said in X-Switchyard-Dropped-Tools and the
// usage row, never a 400. The Anthropic and Gemini fakes answer with real recorded web-search answers
// (../shared/recordings); what the caller must get (the queries, the cited pages) is read from the recordings.
// Chat completions' own `web_search_options` takes the same way to Anthropic, and its answers keep OpenAI's shape.

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import OpenAI from 'openai';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../shared/api/index.js';
import { openAIBaseUrlOf } from '../../../main/gateway/index.js';
import { createAnthropicAdapter } from '../../../main/providers/anthropic/index.js';
import { createGoogleAdapter } from '../../../main/providers/google/index.js';
import { createOpenAIAdapter } from '../../../main/providers/index.js';
import { callerSecret } from '../../gateway/harness.js';
import { loadCatalogue } from '../../recordings/recorded-cases.js';
import { anthropicKey, FakeAnthropic } from '../../support/fake-anthropic.js';
import { FakeGemini, geminiKey } from '../../support/fake-gemini.js';
import { answer, FakeOpenAI } from '../../support/fake-openai.js';
import { jsonReply, replayReply, type RecordedRequest } from '../../support/recording-server.js';
import { startTestGateway, type TestGateway } from '../../support/test-gateway.js';
import { useHarness } from '../../support/use-harness.js';

const claude = 'claude/claude-sonnet-4-20250514';
const gemini = 'gemini/gemini-2.5-pro';
const plainOpenAI = 'oai/gpt-test';
const openRouter = 'router/openai/gpt-4o';

// ---- The recordings and what they say ------------------------------------------------------------------------

const { cases } = loadCatalogue();
function recording(source: string): string {
  const found = cases.find((recorded) => recorded.source === source);
  if (!found) throw new Error(`no recording ${source}`);
  return found.body;
}
const anthropicWhole = recording('vercel__ai/packages/anthropic/src/__fixtures__/anthropic-web-search-tool.1.json');
const anthropicStream = recording(
  'vercel__ai/packages/anthropic/src/__fixtures__/anthropic-web-search-tool.1.chunks.txt',
);
const geminiStream = recording(
  'pydantic__pydantic-ai/tests/models/cassettes/test_google/test_google_model_web_search_tool_stream.yaml#1',
);
const geminiWhole = recording(
  'pydantic__pydantic-ai/tests/models/cassettes/test_google/test_google_model_web_search_tool_stream.yaml#2',
);

interface AnthropicBlock {
  type: string;
  name?: string;
  input?: { query?: string };
  citations?: { url?: string }[];
}

/** The searches (queries) and cited pages of a whole Anthropic message. */
function anthropicExpected(body: string) {
  const blocks = (JSON.parse(body) as { content: AnthropicBlock[] }).content;
  return {
    queries: blocks.filter((block) => block.type === 'server_tool_use').map((block) => block.input?.query ?? ''),
    cited: blocks.flatMap((block) => (block.citations ?? []).map((citation) => citation.url ?? '')),
  };
}

/** The same of an Anthropic stream: queries stream as the JSON input of server_tool_use blocks. */
function anthropicStreamExpected(body: string) {
  const events = [...body.matchAll(/^data: (.*)$/gm)].map(([, data]) => JSON.parse(data!) as Record<string, never>);
  const inputs = new Map<number, string>();
  const cited: string[] = [];
  for (const event of events) {
    const block = (event as { content_block?: AnthropicBlock }).content_block;
    if (event.type === 'content_block_start' && block?.type === 'server_tool_use') inputs.set(event.index, '');
    const delta = (event as { delta?: { partial_json?: string; citation?: { url?: string } } }).delta;
    if (event.type === 'content_block_delta' && inputs.has(event.index) && delta?.partial_json) {
      inputs.set(event.index, inputs.get(event.index)! + delta.partial_json);
    }
    if (delta?.citation?.url) cited.push(delta.citation.url);
  }
  const queries = [...inputs.values()].map((json) => (JSON.parse(json) as { query: string }).query);
  return { queries, cited };
}

/** The Google searches and grounding pages of a Gemini answer (whole, or the events of a stream). */
function geminiExpected(body: string) {
  const responses = body.startsWith('{') ? [body] : [...body.matchAll(/^data: (.*)$/gm)].map(([, data]) => data!);
  const grounding = responses
    .map((text) => (JSON.parse(text) as { candidates: { groundingMetadata?: Record<string, unknown> }[] }).candidates)
    .map((candidates) => candidates[0]?.groundingMetadata)
    .find((metadata) => Array.isArray(metadata?.webSearchQueries)) as {
    webSearchQueries: string[];
    groundingChunks: { web: { uri: string } }[];
  };
  return { queries: grounding.webSearchQueries, pages: grounding.groundingChunks.map((chunk) => chunk.web.uri) };
}

// ---- The harness ---------------------------------------------------------------------------------------------

interface Harness {
  client: OpenAI;
  openai: FakeOpenAI;
  router: FakeOpenAI;
  anthropic: FakeAnthropic;
  gemini: FakeGemini;
  usage: UsageRecord[];
  close(): Promise<void>;
}

/** Every host is this machine: `openrouter.ai` reaches the fake OpenRouter, which the gateway takes for the real. */
const toThisMachine: LookupFunction = (_hostname, options, callback) =>
  dnsLookup('127.0.0.1', options, callback as (error: Error | null, address: string | LookupAddress[]) => void);

async function startHarness(): Promise<Harness> {
  const openai = new FakeOpenAI({ models: ['gpt-test'], fallback: answer('answer from gpt') });
  const router = new FakeOpenAI({ models: ['openai/gpt-4o'], fallback: answer('answer from OpenRouter') });
  const anthropic = new FakeAnthropic({
    models: ['claude-sonnet-4-20250514'],
    fallback: (request: RecordedRequest) =>
      request.body?.stream === true ? replayReply(anthropicStream) : jsonReply(200, JSON.parse(anthropicWhole)),
  });
  const google = new FakeGemini({
    models: ['gemini-2.5-pro'],
    fallback: (request: RecordedRequest) =>
      request.url.includes(':streamGenerateContent')
        ? replayReply(geminiStream)
        : jsonReply(200, JSON.parse(geminiWhole)),
  });
  const routerPort = new URL(await router.start()).port;
  const dispatcher = new Agent({ connect: { lookup: toThisMachine } });
  const served: TestGateway = await startTestGateway({
    providers: [
      { id: 'oai', baseUrl: await openai.start() },
      { id: 'router', baseUrl: `http://openrouter.ai:${routerPort}/api/v1`, apiKey: 'sk-or-test' },
      { id: 'claude', kind: 'anthropic', baseUrl: await anthropic.start(), apiKey: anthropicKey },
      { id: 'gemini', kind: 'google', baseUrl: await google.start(), apiKey: geminiKey },
    ],
    adapters: [createOpenAIAdapter({ dispatcher }), createAnthropicAdapter(), createGoogleAdapter()],
    callers: { 'key-1': callerSecret },
  });
  const client = new OpenAI({ baseURL: openAIBaseUrlOf(served.baseURL), apiKey: callerSecret, maxRetries: 0 });
  return {
    client,
    openai,
    router,
    anthropic,
    gemini: google,
    usage: served.usage,
    async close() {
      await served.close();
      await dispatcher.close();
      await Promise.all([openai.close(), router.close(), anthropic.close(), google.close()]);
    },
  };
}

const harness = useHarness(startHarness);

const webSearch = { type: 'web_search' } as const;
const weather: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

type Item = OpenAI.Responses.ResponseOutputItem;
type SearchItem = OpenAI.Responses.ResponseFunctionWebSearch;
type Action = OpenAI.Responses.ResponseFunctionWebSearch.Search;

function searchesOf(output: Item[]): { queries: string[]; sources: string[]; status: string }[] {
  return output
    .filter((item): item is SearchItem => item.type === 'web_search_call')
    .map((item) => {
      const action = item.action as Action;
      return {
        queries: action.queries ?? [],
        sources: (action.sources ?? []).map((source) => source.url),
        status: item.status,
      };
    });
}

/** The answer's text (a streamed response has no `output_text`, which the SDK adds to whole ones). */
function textOf(output: Item[]): string {
  return output
    .flatMap((item) => (item.type === 'message' ? item.content : []))
    .map((part) => (part.type === 'output_text' ? part.text : ''))
    .join('');
}

function citedUrls(output: Item[]): string[] {
  return output.flatMap((item) =>
    item.type === 'message'
      ? item.content.flatMap((part) =>
          part.type === 'output_text'
            ? part.annotations.flatMap((annotation) => (annotation.type === 'url_citation' ? [annotation.url] : []))
            : [],
        )
      : [],
  );
}

/** A whole answer with the response headers and the usage row it wrote. */
async function ask(body: OpenAI.Responses.ResponseCreateParamsNonStreaming) {
  const { data, response } = await harness().client.responses.create(body).withResponse();
  expect(response.status).toBe(200);
  const row = harness().usage.at(-1)!;
  return { response: data, dropped: response.headers.get('x-switchyard-dropped-tools'), row };
}

/** A streamed answer: its events, the final response, the header and the usage row. */
async function askStreamed(body: OpenAI.Responses.ResponseCreateParamsStreaming) {
  const { data: stream, response } = await harness().client.responses.create(body).withResponse();
  expect(response.status).toBe(200);
  const events: OpenAI.Responses.ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const final = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
  expect(final.type).toBe('response.completed');
  const row = harness().usage.at(-1)!;
  return { events, response: final.response, dropped: response.headers.get('x-switchyard-dropped-tools'), row };
}

function lastBody(requests: RecordedRequest[]): Record<string, unknown> {
  return requests.at(-1)!.body!;
}

// ---- The tests -----------------------------------------------------------------------------------------------

describe('web_search on Anthropic: its web search tool', () => {
  it('is offered beside the functions, and the searches and citations come back (whole answer)', async () => {
    const { response, dropped, row } = await ask({
      model: claude,
      input: 'What is in the tech news today?',
      tools: [{ ...webSearch, user_location: { type: 'approximate', country: 'US', city: 'Boston' } }, weather],
      include: ['web_search_call.action.sources'],
    });
    const sent = lastBody(harness().anthropic.messageRequests()) as { tools: Record<string, unknown>[] };
    expect(sent.tools).toEqual([
      expect.objectContaining({ name: 'get_weather' }),
      {
        type: 'web_search_20250305',
        name: 'web_search',
        user_location: { type: 'approximate', country: 'US', city: 'Boston' },
      },
    ]);
    const expected = anthropicExpected(anthropicWhole);
    expect(expected.queries.length).toBeGreaterThan(1);
    const searches = searchesOf(response.output);
    expect(searches.map((search) => search.queries)).toEqual(expected.queries.map((query) => [query]));
    expect(searches.every((search) => search.status === 'completed')).toBe(true);
    expect(searches[0]!.sources.length).toBeGreaterThan(0);
    expect(citedUrls(response.output)).toEqual(expected.cited);
    // The searches come before the answer they informed.
    expect(response.output.map((item) => item.type)).toEqual([...searches.map(() => 'web_search_call'), 'message']);
    expect(dropped).toBeNull();
    expect(row).toMatchObject({ status: 200, model: claude });
    expect(row.dropped_tools).toBeUndefined();
  });

  it('streams each search as a web_search_call item between the texts it separates', async () => {
    const { events, response, dropped } = await askStreamed({
      model: claude,
      input: 'What is in the tech news today?',
      tools: [webSearch],
      stream: true,
    });
    const expected = anthropicStreamExpected(anthropicStream);
    expect(searchesOf(response.output).map((search) => search.queries)).toEqual(
      expected.queries.map((query) => [query]),
    );
    const types = events.map((event) => event.type);
    expect(types).toContain('response.web_search_call.searching');
    expect(types.filter((type) => type === 'response.web_search_call.completed')).toHaveLength(expected.queries.length);
    expect(citedUrls(response.output)).toEqual(expected.cited);
    // Each citation spans text of its own message.
    for (const item of response.output) {
      if (item.type !== 'message') continue;
      for (const part of item.content) {
        if (part.type !== 'output_text') continue;
        for (const annotation of part.annotations) {
          if (annotation.type !== 'url_citation') continue;
          expect(annotation.start_index).toBeGreaterThanOrEqual(0);
          expect(annotation.end_index).toBeLessThanOrEqual(part.text.length);
        }
      }
    }
    expect(dropped).toBeNull();
  });
});

describe('web_search on Gemini: Google Search grounding', () => {
  it('grounds a request without functions, and the searches and citations come back (stream)', async () => {
    const { response, dropped, row } = await askStreamed({
      model: gemini,
      input: 'What is the weather in San Francisco today?',
      tools: [{ type: 'web_search_preview' }],
      include: ['web_search_call.action.sources'],
      stream: true,
    });
    expect(lastBody(harness().gemini.generateRequests()).tools).toEqual([{ googleSearch: {} }]);
    const expected = geminiExpected(geminiStream);
    expect(searchesOf(response.output)).toEqual([
      { queries: expected.queries, sources: expected.pages, status: 'completed' },
    ]);
    expect(citedUrls(response.output).length).toBeGreaterThan(0);
    expect(expected.pages).toEqual(expect.arrayContaining(citedUrls(response.output)));
    expect(dropped).toBeNull();
    expect(row.dropped_tools).toBeUndefined();
  });

  it('grounds a whole answer the same way', async () => {
    const { response } = await ask({ model: gemini, input: 'And in Mexico City?', tools: [webSearch] });
    const expected = geminiExpected(geminiWhole);
    expect(searchesOf(response.output)).toEqual([{ queries: expected.queries, sources: [], status: 'completed' }]);
  });

  it('leaves the search out beside functions (Gemini 2.5 cannot combine them), and says so', async () => {
    const { dropped, row } = await ask({ model: gemini, input: 'Weather?', tools: [webSearch, weather] });
    const sent = lastBody(harness().gemini.generateRequests()) as { tools: Record<string, unknown>[] };
    expect(sent.tools).toEqual([{ functionDeclarations: [expect.objectContaining({ name: 'get_weather' })] }]);
    expect(dropped).toBe('web_search');
    expect(row.dropped_tools).toEqual(['web_search']);
  });
});

describe('web_search on OpenAI-compatible providers', () => {
  it('asks OpenRouter for its web plugin', async () => {
    harness().router.script(
      answer('', {
        deltas: [
          { content: 'Paris is sunny.' },
          {
            annotations: [
              {
                type: 'url_citation',
                url_citation: { url: 'https://weather.example/paris', title: 'Paris', start_index: 0, end_index: 15 },
              },
            ],
          },
        ],
      }),
    );
    const { response, dropped, row } = await askStreamed({
      model: openRouter,
      input: 'Weather in Paris?',
      tools: [{ ...webSearch, search_context_size: 'low' }, weather],
      stream: true,
    });
    const sent = lastBody(harness().router.chatRequests());
    expect(sent).toMatchObject({ plugins: [{ id: 'web' }], web_search_options: { search_context_size: 'low' } });
    expect(textOf(response.output)).toBe('Paris is sunny.');
    expect(citedUrls(response.output)).toEqual(['https://weather.example/paris']);
    expect(dropped).toBeNull();
    expect(row.dropped_tools).toBeUndefined();
  });

  it('leaves it out for a plain OpenAI-compatible server, says so in the header and the usage row', async () => {
    const { response, dropped, row } = await ask({
      model: plainOpenAI,
      input: 'hi',
      tools: [webSearch, weather],
      tool_choice: 'auto',
    });
    expect(response.output_text).toBe('answer from gpt');
    const sent = lastBody(harness().openai.chatRequests());
    expect(sent).not.toHaveProperty('web_search_options');
    expect(sent).not.toHaveProperty('plugins');
    expect((sent.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual(['get_weather']);
    expect(dropped).toBe('web_search');
    expect(row).toMatchObject({ status: 200, dropped_tools: ['web_search'] });
  });

  it('says so on a stream too', async () => {
    const { response, dropped, row } = await askStreamed({
      model: plainOpenAI,
      input: 'hi',
      tools: [webSearch],
      tool_choice: 'required',
      stream: true,
    });
    expect(textOf(response.output)).toBe('answer from gpt');
    expect(lastBody(harness().openai.chatRequests())).not.toHaveProperty('tool_choice');
    expect(dropped).toBe('web_search');
    expect(row.dropped_tools).toEqual(['web_search']);
  });
});

describe('other hosted tools', () => {
  const others = [
    { type: 'file_search', vector_store_ids: ['vs_1'] },
    { type: 'code_interpreter', container: { type: 'auto' } },
    { type: 'image_generation' },
    { type: 'computer_use_preview', display_height: 768, display_width: 1024, environment: 'browser' },
    { type: 'mcp', server_label: 'docs', server_url: 'https://mcp.example' },
    { type: 'local_shell' },
  ] as unknown as OpenAI.Responses.Tool[];

  it.each([plainOpenAI, claude, gemini])('are left out for %s, named in the header, never a 400', async (model) => {
    const { response, dropped, row } = await ask({
      model,
      input: 'hi',
      tools: [...others, weather],
      tool_choice: { type: 'file_search' },
    });
    expect(response.status).toBe('completed');
    const names = 'file_search, code_interpreter, image_generation, computer_use_preview, mcp, local_shell';
    expect(dropped).toBe(names);
    expect(row.dropped_tools).toEqual(names.split(', '));
  });

  it('leave Codex’s cached-only web search out too (a live search would fetch more than it allowed)', async () => {
    const { dropped } = await ask({
      model: claude,
      input: 'hi',
      tools: [{ type: 'web_search', external_web_access: false } as unknown as OpenAI.Responses.Tool],
    });
    const sent = lastBody(harness().anthropic.messageRequests());
    expect(sent).not.toHaveProperty('tools');
    expect(dropped).toBe('web_search');
  });
});

describe('the next turn', () => {
  it('takes the web_search_call items of the answer back as input', async () => {
    const first = await ask({ model: claude, input: 'What is in the tech news today?', tools: [webSearch] });
    expect(searchesOf(first.response.output).length).toBeGreaterThan(0);
    const second = await ask({
      model: claude,
      input: [
        { role: 'user', content: 'What is in the tech news today?' },
        ...(first.response.output as OpenAI.Responses.ResponseInputItem[]),
        { role: 'user', content: 'Thanks. Anything else?' },
      ],
      tools: [webSearch],
    });
    expect(second.response.status).toBe('completed');
    const sent = lastBody(harness().anthropic.messageRequests()) as { messages: { role: string }[] };
    expect(sent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });
});

describe('chat completions’ web_search_options', () => {
  it('offers Anthropic’s web search; the answer cites the pages and keeps OpenAI’s shape', async () => {
    const client = harness().client;
    const messages = [{ role: 'user' as const, content: 'What is in the tech news today?' }];
    const whole = await client.chat.completions.create({ model: claude, messages, web_search_options: {} });
    const sent = lastBody(harness().anthropic.messageRequests()) as { tools: unknown[] };
    expect(sent.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
    const message = whole.choices[0]!.message;
    expect(message.annotations?.map((annotation) => annotation.url_citation.url)).toEqual(
      anthropicExpected(anthropicWhole).cited,
    );
    expect(message).not.toHaveProperty('web_search_calls');

    const stream = await client.chat.completions.create({
      model: claude,
      messages,
      web_search_options: {},
      stream: true,
    });
    const cited: string[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { annotations?: { url_citation: { url: string } }[] } | undefined;
      expect(delta).not.toHaveProperty('web_search_calls');
      cited.push(...(delta?.annotations ?? []).map((annotation) => annotation.url_citation.url));
    }
    expect(cited).toEqual(anthropicStreamExpected(anthropicStream).cited);
  });
});
