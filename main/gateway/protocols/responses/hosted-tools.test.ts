import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../../shared/api/index.js';
import { hostedToolsFor, hostedToolsOf } from './hosted-tools.js';
import { translateResponsesRequest } from './responses-request.js';

const anthropic = { kind: 'anthropic', base_url: 'https://api.anthropic.com' } as const;
const google = { kind: 'google', base_url: 'https://generativelanguage.googleapis.com' } as const;
const openai = { kind: 'openai', base_url: 'https://api.openai.com/v1' } as const;
const openRouter = { kind: 'openai', base_url: 'https://openrouter.ai/api/v1' } as const;

const weather = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } };

describe('hostedToolsOf', () => {
  it('keeps the first web search with its location and context size as chat’s web_search_options', () => {
    const hosted = hostedToolsOf([
      weather,
      {
        type: 'web_search_preview',
        search_context_size: 'high',
        user_location: { type: 'approximate', city: 'Paris', country: 'FR', region: null },
      },
      { type: 'web_search' },
    ] as { type: string }[]);
    expect(hosted).toEqual({
      webSearch: {
        type: 'web_search_preview',
        options: {
          search_context_size: 'high',
          user_location: { type: 'approximate', approximate: { city: 'Paris', country: 'FR' } },
        },
      },
      dropped: [],
    });
  });

  it('leaves out every other hosted tool, and Codex’s cached-only search, each named once', () => {
    const hosted = hostedToolsOf([
      { type: 'file_search' },
      { type: 'web_search', external_web_access: false },
      { type: 'file_search' },
      { type: 'mcp' },
    ] as { type: string }[]);
    expect(hosted).toEqual({ webSearch: null, dropped: ['file_search', 'web_search', 'mcp'] });
  });
});

describe('hostedToolsFor', () => {
  const { chatRequest, hosted } = translateResponsesRequest({
    model: 'p/m',
    input: 'hi',
    tools: [{ type: 'web_search' }, { type: 'code_interpreter' }],
  });

  it('keeps the web search for Anthropic and Gemini, whose builders offer their own', () => {
    for (const [provider, model] of [
      [anthropic, 'claude-sonnet-4-5'],
      [google, 'gemini-2.5-flash'],
    ] as const) {
      const prepared = hostedToolsFor(chatRequest, hosted, provider, model);
      expect(prepared.request.web_search_options).toEqual({});
      expect(prepared.dropped).toEqual(['code_interpreter']);
    }
  });

  it('adds OpenRouter’s web plugin', () => {
    const prepared = hostedToolsFor(chatRequest, hosted, openRouter, 'openai/gpt-4o');
    expect(prepared.request).toMatchObject({ plugins: [{ id: 'web' }], web_search_options: {} });
    expect(prepared.dropped).toEqual(['code_interpreter']);
  });

  it('leaves it out where the provider has no web search', () => {
    for (const [provider, model] of [
      [openai, 'gpt-4o'],
      [anthropic, 'claude-3-haiku-20240307'],
      [google, 'gemini-1.5-pro'],
    ] as const) {
      const prepared = hostedToolsFor(chatRequest, hosted, provider, model);
      expect(prepared.request).not.toHaveProperty('web_search_options');
      expect(prepared.dropped).toEqual(['code_interpreter', 'web_search']);
    }
  });

  it('leaves it out for Gemini beside function tools, and for Anthropic beside a function named web_search', () => {
    const withTool = (name: string): ChatRequest => ({
      ...chatRequest,
      tools: [{ type: 'function', function: { name, parameters: { type: 'object' } } }],
    });
    expect(hostedToolsFor(withTool('get_weather'), hosted, google, 'gemini-2.5-flash').dropped).toContain('web_search');
    expect(hostedToolsFor(withTool('get_weather'), hosted, anthropic, 'claude-opus-4-1').dropped).not.toContain(
      'web_search',
    );
    expect(hostedToolsFor(withTool('web_search'), hosted, anthropic, 'claude-opus-4-1').dropped).toContain(
      'web_search',
    );
  });
});

describe('tool_choice naming hosted tools', () => {
  it('is never a 400: a hosted choice becomes auto, hosted entries of allowed_tools make the rest optional', () => {
    const tools = [weather, { type: 'web_search' }];
    expect(
      translateResponsesRequest({ model: 'p/m', input: 'x', tools, tool_choice: { type: 'web_search' } }),
    ).toMatchObject({ chatRequest: { tool_choice: 'auto' } });
    const allowed = {
      type: 'allowed_tools',
      mode: 'required',
      tools: [{ type: 'function', name: 'get_weather' }, { type: 'web_search' }],
    };
    expect(
      translateResponsesRequest({ model: 'p/m', input: 'x', tools, tool_choice: allowed }).chatRequest,
    ).toMatchObject({
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'get_weather' } }] },
      },
    });
  });

  it('asks for no tool_choice when no function tool is left', () => {
    const { chatRequest } = translateResponsesRequest({
      model: 'p/m',
      input: 'x',
      tools: [{ type: 'web_search' }],
      tool_choice: 'required',
    });
    expect(chatRequest).not.toHaveProperty('tool_choice');
    expect(chatRequest.web_search_options).toEqual({});
  });
});

describe('web_search_call input items', () => {
  it('are taken and left out: the assistant turn around them stays one message', () => {
    const { chatRequest } = translateResponsesRequest({
      model: 'p/m',
      input: [
        { role: 'user', content: 'news?' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Searching.' }] },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'news' } },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Here.' }] },
      ],
    });
    expect(chatRequest.messages).toEqual([
      { role: 'user', content: 'news?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Searching.' },
          { type: 'text', text: 'Here.' },
        ],
      },
    ]);
  });
});
