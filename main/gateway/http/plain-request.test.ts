// The plain parser of chat requests against zod alone. For a corpus of bodies — the shapes callers send, the requests
// real clients were recorded sending, near misses of every kind, bodies no JSON makes, and seeded random mutations —
// parseChatRequest gives exactly what zod alone gives: the same output (key order and undefined fields included) or
// the same error. And the parser does take the requests zod accepts: zod's safeParse is not called for them.

import fc from 'fast-check';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { ApiError, chatRequestSchema } from '../../../shared/api/index.js';
import { listRecordings, readCassette } from '../../../test/recordings/recordings-folder.js';
import { openAIParameters, openRouterParameters } from '../../../test/support/request-parameters.js';
import { pathBeyondDepth } from './json-depth.js';
import { notPlain, plainParser } from './plain-request.js';
import {
  chatRequiredFields,
  maxRequestDepth,
  parseChatRequest,
  parseRequestBody,
  type ParseOptions,
} from './validate-chat-request.js';

const seed = 20_261_124;

/** A value with what deep equality overlooks made visible: key order, prototypes, holes. */
function exactly(value: unknown): unknown {
  if (Array.isArray(value)) {
    return {
      array: Array.from({ length: value.length }, (_, index) => (index in value ? exactly(value[index]) : 'hole')),
    };
  }
  if (value !== null && typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value) === Object.prototype ? 'object' : String(value.constructor?.name);
    return { [prototype]: Object.entries(value).map(([key, item]) => [key, exactly(item)]) };
  }
  return value;
}

type Outcome = { output: unknown } | { status: number; message: string } | { thrown: string };

function outcome(parse: () => unknown): Outcome {
  try {
    return { output: exactly(parse()) };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    return { thrown: String(error) };
  }
}

let safeParse: MockInstance;
beforeEach(() => {
  safeParse = vi.spyOn(chatRequestSchema, 'safeParse');
});
afterEach(() => {
  safeParse.mockRestore();
});

/**
 * parseChatRequest against zod alone (parseRequestBody without the plain parser), each on a fresh body. Returns
 * whether zod accepted it and whether parseChatRequest answered without zod.
 */
function compare(body: () => unknown, options: ParseOptions = {}): { accepted: boolean; plain: boolean } {
  const defaults = options.streamByDefault === undefined ? {} : { stream: options.streamByDefault };
  const alone = outcome(() => parseRequestBody(chatRequestSchema, body(), defaults, chatRequiredFields));
  safeParse.mockClear();
  const withPlain = outcome(() => parseChatRequest(body(), options));
  expect(withPlain).toStrictEqual(alone);
  return { accepted: 'output' in alone, plain: safeParse.mock.calls.length === 0 };
}

/**
 * Compares a body given as JSON text (so `__proto__` is a key, as JSON.parse makes it); a body zod accepts must have
 * been taken by the parser, unless it has such a key. Returns whether zod accepted it.
 */
function compareText(text: string, options: ParseOptions): boolean {
  const { accepted, plain } = compare(() => JSON.parse(text) as unknown, options);
  if (accepted && !text.includes('__proto__')) expect(plain, text).toBe(true);
  return accepted;
}

/** compareText with each default of stream: whether zod accepted the body, for each. */
function compareJson(text: string): boolean[] {
  return [{}, { streamByDefault: true }, { streamByDefault: false }].map((options) => compareText(text, options));
}

const user = { role: 'user', content: 'hi' };
const tool = (name: string) => ({
  type: 'function',
  function: { name, description: 'd', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
});

/** Requests as callers send them: every one is valid and must not need zod. */
const commonRequests: Record<string, unknown> = {
  'the benchmark’s': {
    model: 'fake/throughput',
    stream: true,
    messages: [
      { role: 'system', content: 'You are a terse assistant used by a benchmark.' },
      { role: 'user', content: 'Say hello in ten short words, one per chunk, please.' },
    ],
    temperature: 0.2,
  },
  'without stream': { model: 'a/b', messages: [user] },
  'models instead of model': { models: ['a/b', 'c/d'], messages: [user] },
  'model and models': { model: 'x/y', models: ['a/b'], messages: [user] },
  'a tool loop': {
    model: 'a/b',
    stream: false,
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'Long prompt', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"q":"x"}' } }],
        reasoning_details: [{ type: 'reasoning.encrypted', data: 'abc', id: 'c1', format: 'google-gemini-v1' }],
      },
      { role: 'assistant', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'f', arguments: '' } }] },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: '{"ok":true}' }] },
      { role: 'tool', tool_call_id: 'c2', content: '', name: 'f' },
      { role: 'developer', content: 'Be brief.' },
    ],
    tools: [tool('f'), tool('g')],
    tool_choice: 'auto',
    parallel_tool_calls: false,
  },
  'a forced tool': {
    model: 'a/b',
    messages: [user],
    tools: [tool('f')],
    tool_choice: { type: 'function', function: { name: 'f' } },
  },
  'allowed tools': {
    model: 'a/b',
    messages: [user],
    tools: [tool('a'), tool('b')],
    tool_choice: {
      type: 'allowed_tools',
      allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'b' } }] },
    },
  },
  'media and refusals': {
    model: 'a/b',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'https://example.test/cat.png' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERg==', filename: 'a.pdf' } },
          { type: 'file', file: { file_id: 'file-123' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }], reasoning: 'because', name: 'bot' },
      { role: 'user', content: [] },
    ],
  },
  'reasoning as OpenRouter spells it': {
    model: 'a/b',
    messages: [user],
    reasoning: { effort: 'high', max_tokens: 1, exclude: true },
  },
  'reasoning as OpenAI spells it': { model: 'a/b', messages: [user], reasoning_effort: 'minimal' },
  'both reasoning spellings': {
    model: 'a/b',
    messages: [user],
    reasoning: { enabled: false },
    reasoning_effort: 'low',
  },
  'every parameter at its limits': {
    model: 'a/b',
    messages: [user],
    stream_options: { include_usage: null, extra: 1 },
    temperature: 2,
    top_p: 0,
    max_tokens: Number.MAX_SAFE_INTEGER,
    max_completion_tokens: 1,
    stop: ['a', 'b', 'c', 'd'],
    seed: -Number.MAX_SAFE_INTEGER,
    presence_penalty: -2,
    frequency_penalty: 2,
    response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
    user: '',
    n: 128,
    top_logprobs: 20,
    logit_bias: { '50256': -100, '1': 1e-300 },
    metadata: {},
    top_k: 0,
    min_p: 1,
    top_a: 0,
    repetition_penalty: 1e-9,
    provider: { require_parameters: true, order: ['x'] },
  },
  'OpenAI’s and OpenRouter’s further parameters': {
    model: 'a/b',
    messages: [user],
    ...openAIParameters,
    ...openRouterParameters,
    stop: 'END',
  },
  'fields the schema does not describe': {
    transforms: ['middle-out'],
    model: 'a/b',
    plugins: [{ id: 'web' }],
    messages: [{ ...user, cache_control: { type: 'ephemeral' }, constructor: 'x', toString: 1 }],
    usage: { include: true },
    constructor: { prototype: {} },
    hasOwnProperty: null,
    valueOf: 'v',
  },
  'nulls for "not set"': {
    model: 'a/b',
    messages: [{ role: 'assistant', content: 'x', reasoning: null }],
    temperature: null,
    tools: null,
    stream: null,
    tool_choice: null,
  },
  'unicode and long text': {
    model: 'ü/模型-😀',
    messages: [{ role: 'user', content: 'é\u0000\u2028😀'.repeat(10_000) }],
    user: '\ud800',
  },
  'nesting up to the limit': {
    model: 'a/b',
    messages: [user],
    tools: [{ type: 'function', function: { name: 'f', parameters: nested(maxRequestDepth - 4) } }],
  },
};

/** `{ a: { a: … { a: 1 } } }` with `levels` objects. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { a: 1 };
  for (let level = 1; level < levels; level += 1) value = { a: value };
  return value;
}

/** Bodies zod refuses, or accepts only just: the error (or output) must be the same. JSON text, for `__proto__`. */
const nearMisses: string[] = [
  'null',
  '[]',
  '"x"',
  '42',
  '{}',
  '{"model":"a/b"}',
  '{"model":"a/b","messages":[]}',
  '{"model":"a/b","messages":{}}',
  '{"model":"a/b","messages":null}',
  '{"model":null,"messages":[{"role":"user","content":"x"}]}',
  '{"model":"","messages":[{"role":"user","content":"x"}]}',
  '{"models":[],"messages":[{"role":"user","content":"x"}]}',
  '{"models":[""],"messages":[{"role":"user","content":"x"}]}',
  '{"models":"a/b","messages":[{"role":"user","content":"x"}]}',
  '{"model":1,"messages":[{"role":"user","content":"x"}]}',
  '{"model":"a/b","messages":[null]}',
  '{"model":"a/b","messages":[[]]}',
  '{"model":"a/b","messages":[{"role":"user"}]}',
  '{"model":"a/b","messages":[{"role":"user","content":null}]}',
  '{"model":"a/b","messages":[{"role":"assistant"}]}',
  '{"model":"a/b","messages":[{"role":"assistant","tool_calls":[]}]}',
  '{"model":"a/b","messages":[{"role":"assistant","tool_calls":null,"content":"x"}]}',
  '{"model":"a/b","messages":[{"role":"user","tool_calls":[],"content":"x"}]}',
  '{"model":"a/b","messages":[{"role":"tool","content":"x"}]}',
  '{"model":"a/b","messages":[{"role":"tool","content":"x","tool_call_id":""}]}',
  '{"model":"a/b","messages":[{"role":"bot","content":"x"}]}',
  '{"model":"a/b","messages":[{"role":null,"content":"x"}]}',
  '{"model":"a/b","messages":[{"content":"x"}]}',
  '{"model":"a/b","messages":[{"role":"user","content":42}]}',
  '{"model":"a/b","messages":[{"role":"user","content":{"type":"text","text":"x"}}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"type":"text"}]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"type":"video"}]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"text":"x"}]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[null]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":["x"]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"type":"refusal","refusal":"x"}]}]}',
  '{"model":"a/b","messages":[{"role":"system","content":[{"type":"image_url","image_url":{"url":"https://x.test/a.png"}}]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"ftp://x.test/a.png"}}]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x","detail":"max"}}]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"type":"file","file":{}}]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"type":"file","file":{"file_data":"data:x"}}]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"","format":"wav"}}]}]}',
  '{"model":"a/b","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"","type":"function","function":{"name":"f","arguments":"{}"}}]}]}',
  '{"model":"a/b","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":{}}}]}]}',
  '{"model":"a/b","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"tool","function":{"name":"f","arguments":"{}"}}]}]}',
  '{"model":"a/b","messages":[{"role":"assistant","content":"x","reasoning_details":[{"type":"x","index":"1"}]}]}',
  '{"model":"a/b","messages":[{"role":"assistant","content":"x","reasoning_details":[{"type":"x","id":null,"signature":null}]}]}',
  '{"model":"a/b","messages":[{"role":"assistant","content":"x","reasoning":1}]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x","name":null}]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"stream":"yes"}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"stream":0}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"stream_options":[]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":"true"}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"temperature":2.0000000001}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"temperature":-1e-300}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"temperature":-0}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"temperature":"0.5"}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"temperature":"NaN"}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"temperature":1e999}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"top_p":1.5}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"max_tokens":0}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"max_tokens":1.5}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"max_tokens":1.0}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"max_tokens":9007199254740992}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"max_tokens":1e400}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"seed":-9007199254740993}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"n":0}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"n":129}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"top_logprobs":21}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"repetition_penalty":0}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"top_k":-1}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"stop":[]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"stop":["a","b","c","d","e"]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"stop":[1]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"stop":{}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tools":[]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tools":{}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tools":[{"type":"retrieval"}]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"has space"}}]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","parameters":[]}}]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","strict":null}}]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tool_choice":"any"}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tool_choice":{"type":"function","function":{"name":"f"}}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tool_choice":{"type":"function","function":{}}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[]}}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tool_choice":[]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"reasoning":[]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"reasoning":{"effort":"max"}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"reasoning":{"max_tokens":0}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"reasoning_effort":"max"}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"response_format":{"type":"xml"}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"logit_bias":{"1":"x"}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"logit_bias":[]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"metadata":{"a":1}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"verbosity":"loud"}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"audio":[]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"provider":{"require_parameters":"yes"}}',
  '{"messages":"x","temperature":9,"top_p":9,"max_tokens":-1}',
  // `__proto__` as a key (JSON.parse makes it an own property) wherever objects go
  '{"__proto__":{"model":"a/b"},"messages":[{"role":"user","content":"x"}]}',
  '{"__proto__":{"temperature":9},"model":"a/b","messages":[{"role":"user","content":"x"}]}',
  '{"__proto__":"x","model":"a/b","messages":[{"role":"user","content":"x"}]}',
  '{"__proto__":null,"model":"a/b","messages":[{"role":"user","content":"x"}]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x","__proto__":{"role":"bot"}}]}',
  '{"model":"a/b","messages":[{"__proto__":{"role":"user","content":"x"}}]}',
  '{"model":"a/b","messages":[{"role":"user","content":[{"type":"text","text":"x","__proto__":{}}]}]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"stream_options":{"__proto__":{"include_usage":1}}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"__proto__":{}}}}]}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"extra":{"__proto__":{"a":1}}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"metadata":{"__proto__":"x"}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x"}],"constructor":{"prototype":{"model":1}}}',
  '{"model":"a/b","messages":[{"role":"user","content":"x","constructor":null,"toString":"x"}],"toString":1}',
];

/** Too deep, or just deep enough, wherever a value can nest: inside a walked field and inside one passed as given. */
function depthCases(): string[] {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const cases: string[] = [];
  for (const levels of [maxRequestDepth - 5, maxRequestDepth - 4, maxRequestDepth - 3, maxRequestDepth, 5_000]) {
    cases.push(
      `{"model":"a/b","messages":[{"role":"user","content":"x"}],"extra":${deep(levels)}}`,
      `{"model":"a/b","messages":[{"role":"user","content":"x","extra":${deep(levels)}}]}`,
      `{"model":"a/b","messages":[{"role":"user","content":[{"type":"text","text":"x","extra":${deep(levels)}}]}]}`,
      `{"model":"a/b","messages":[{"role":"user","content":${deep(levels)}}]}`,
      `{"model":"a/b","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"a":${deep(levels)}}}}]}`,
      `{"model":"a/b","messages":[{"role":"user","content":"x"}],"provider":{"order":${deep(levels)}}}`,
      `{"model":"a/b","messages":[{"role":"user","content":"x"}],"temperature":9,"x":${deep(levels)}}`,
      `{"__proto__":{"x":${deep(levels)}},"model":"a/b","messages":[{"role":"user","content":"x"}]}`,
      `{"model":"a/b","messages":[{"role":"user","content":"x","__proto__":{"x":${deep(levels)}}}]}`,
    );
  }
  return cases;
}

describe('the plain parser of chat requests', () => {
  it.each(Object.entries(commonRequests))('takes %s request, with the output zod gives', (_, body) => {
    expect(compareJson(JSON.stringify(body))).toEqual([true, true, true]);
  });

  it('gives zod’s answer for near misses, and takes the near misses zod accepts', () => {
    let refusals = 0;
    for (const text of nearMisses) {
      refusals += compareJson(text).filter((accepted) => !accepted).length;
    }
    expect(refusals).toBeGreaterThan(nearMisses.length * 2);
  });

  it('keeps the depth limit wherever a value nests, and takes what is within it', () => {
    for (const text of depthCases()) compareJson(text);
  });

  it('gives zod’s answer for every request body recorded from real clients, and takes the chat requests', () => {
    let chatRequests = 0;
    for (const path of listRecordings().filter((recording) => recording.endsWith('.yaml'))) {
      for (const { uri, requestBody } of readCassette(path)) {
        if (requestBody === null) continue;
        const accepted = compareJson(JSON.stringify(requestBody));
        if (uri.endsWith('/chat/completions')) {
          chatRequests += 1;
          expect(accepted, `${path} ${uri}`).toEqual([true, true, true]);
        }
      }
    }
    expect(chatRequests).toBeGreaterThanOrEqual(15);
  });

  it('gives zod’s answer for bodies no JSON makes (undefined, NaN, holes, other prototypes), as code builds them', () => {
    const bodies: (() => unknown)[] = [
      () => ({ model: undefined, models: ['a/b'], messages: [user] }),
      () => ({ model: undefined, messages: [user] }),
      () => ({ model: 'a/b', messages: [user], stream: undefined, temperature: undefined, extra: undefined }),
      () => ({ model: 'a/b', messages: [{ ...user, name: undefined, tool_calls: undefined }] }),
      () => ({
        model: 'a/b',
        messages: [
          {
            role: 'assistant',
            content: undefined,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }],
          },
        ],
      }),
      () => ({ model: 'a/b', messages: [user], reasoning: undefined, reasoning_effort: 'low' }),
      () => ({ model: 'a/b', messages: [user], temperature: NaN }),
      () => ({ model: 'a/b', messages: [user], temperature: Infinity }),
      () => ({ model: 'a/b', messages: [user], seed: -0, temperature: -0 }),
      () => ({ model: 'a/b', messages: [user], max_tokens: 10n }),
      () => ({
        model: 'a/b',
        messages: [{ role: 'assistant', content: 'x', reasoning_details: [{ type: 't', index: NaN }] }],
      }),
      () => ({ model: 'a/b', messages: [user], logit_bias: { '1': -Infinity } }),
      () => ({
        model: 'a/b',
        messages: [
          new (class {
            role = 'user';
            content = 'x';
            get name() {
              return 'n';
            }
          })(),
        ],
      }),
      () => ({ model: 'a/b', messages: [user, , user] }), // eslint-disable-line no-sparse-arrays
      () => ({ model: 'a/b', messages: [Object.assign(Object.create(null), user)] }),
      () => ({ model: 'a/b', messages: [user], stream_options: Object.create(null) }),
      () => ({ model: 'a/b', messages: [user], metadata: Object.assign(Object.create(null), { a: 'b' }) }),
      () => ({
        model: 'a/b',
        messages: [
          new (class Message {
            role = 'user';
            content = 'x';
          })(),
        ],
      }),
      () => ({ model: 'a/b', messages: [user], stream_options: new Date(0) }),
      () => ({ model: 'a/b', messages: [user], tools: [tool('f')].map((item) => Object.freeze(item)) }),
      () => ({ model: 'a/b', messages: [{ role: 'user', content: new String('x') }] }),
      () => ({ model: 'a/b', messages: [user], [Symbol('s')]: 1, metadata: { [Symbol('k')]: 'v' } }),
      () => Object.assign(Object.create({ temperature: 9 }), { model: 'a/b', messages: [user] }),
      () => new Map([['model', 'a/b']]),
      () => {
        const cycle: Record<string, unknown> = { role: 'user', content: 'x' };
        cycle.self = cycle;
        return { model: 'a/b', messages: [cycle] };
      },
    ];
    for (const body of bodies) for (const options of [{}, { streamByDefault: false }]) compare(body, options);
  });

  it('gives zod’s answer for seeded random mutations of a rich request, and takes those zod accepts', () => {
    const rich = commonRequests['a tool loop'] as Record<string, unknown>;
    const richer = { ...rich, ...(commonRequests['every parameter at its limits'] as object), messages: rich.messages };
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), replacement), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (edits, stream) => {
          const body = edits.reduce<unknown>((edited, [pick, value]) => replaceNode(edited, pick, value), richer);
          if (compareText(JSON.stringify(body), { streamByDefault: stream })) accepted += 1;
        },
      ),
      { seed, numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(120);
  });

  it('gives zod’s answer for seeded random request-like bodies, and takes those zod accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(requestLike, (body) => {
        if (compareText(JSON.stringify(body), {})) accepted += 1;
      }),
      { seed, numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(200);
  });
});

describe('plainParser', () => {
  /** The parser's answer for `value`: zod's output, or notPlain; always notPlain for what the depth check refuses. */
  function sameAsZod(schema: z.ZodType, value: unknown, maxDepth: number): boolean {
    const plain = plainParser(schema, maxDepth)(value);
    if (pathBeyondDepth(value, maxDepth)) {
      expect(plain).toBe(notPlain);
      return false;
    }
    const result = schema.safeParse(value);
    if (plain === notPlain) return false;
    expect(exactly(plain)).toStrictEqual(result.success ? exactly(result.data) : 'refused by zod');
    return true;
  }

  const deep = (levels: number): unknown => (levels === 0 ? {} : [deep(levels - 1)]);
  const nameGetter = class {
    role = 'user';
    get name() {
      return 'from the prototype';
    }
  };

  // Each: the schema, values for it, whether the parser takes some of them (or leaves all to zod), the depth limit.
  it.each<[string, z.ZodType, unknown[], boolean, number?]>([
    [
      'optional, nullable and default',
      z.object({
        a: z.string().optional(),
        b: z.number().nullable(),
        c: z.boolean().default(true),
        d: z.string().default('x').optional(),
        e: z
          .string()
          .transform((): string | undefined => undefined)
          .default('d'),
      }),
      [{ b: null }, { a: undefined, b: 1 }, { b: 1, c: undefined, e: 'q' }, { b: 1, d: undefined }, {}, { a: 1, b: 1 }],
      true,
    ],
    [
      'numbers zod refuses',
      z.object({ n: z.number().optional() }),
      [{ n: NaN }, { n: Infinity }, { n: -0 }, { n: '1' }],
      true,
    ],
    [
      'required fields that take undefined',
      z.object({ a: z.unknown(), b: z.union([z.string(), z.undefined()]) }),
      [{}, { a: 1 }, { a: undefined, b: undefined }, { b: 'x' }],
      true,
    ],
    [
      'keys found only on the prototype',
      z.looseObject({ role: z.string(), name: z.string().optional() }),
      [new nameGetter(), Object.create({ role: 'user' }), Object.assign(Object.create(null), { role: 'user', x: 1 })],
      false,
    ],
    [
      'stripped and strict objects',
      z.union([z.strictObject({ a: z.string() }), z.object({ a: z.number() })]),
      [{ a: 'x' }, { a: 'x', b: 1 }, { a: 1, b: 1 }, { a: 1, b: deep(3) }],
      true,
      3,
    ],
    [
      'unions whose first option it cannot vouch for',
      z.union([z.object({ a: z.object({}) }), z.object({})]),
      [{ a: Object.create(null) }, { a: {} }, {}, { a: 1 }],
      true,
    ],
    [
      'discriminated unions',
      z.discriminatedUnion('t', [z.object({ t: z.literal('a'), x: z.string() }), z.object({ t: z.literal('b') })]),
      [{ t: 'a', x: '1' }, { t: 'b', y: 1 }, { t: 'c' }, {}, null, [], { t: 'a' }],
      true,
    ],
    [
      'records',
      z.record(z.string(), z.number()),
      [{ a: 1, 2: 3 }, { a: NaN }, {}, [], { [Symbol('s')]: 1 }, JSON.parse('{"__proto__":1,"a":1}'), new Map()],
      true,
    ],
    ['records with listed keys', z.record(z.enum(['a', 'b']), z.number()), [{ a: 1, b: 2 }, { a: 1 }], false],
    [
      'checks of every kind',
      z
        .object({
          s: z.string().min(2).regex(/x/),
          n: z.int().min(1),
          e: z.email().optional(),
          r: z.string().refine((value) => value !== 'no'),
          t: z.string().trim(),
          l: z.array(z.string()).max(1),
        })
        .superRefine((value, context) => {
          if (value.s === value.t) context.addIssue({ code: 'custom', message: 'same' });
        }),
      [
        { s: 'xx', n: 1, r: 'ok', t: ' padded ', l: [] },
        { s: 'x', n: 1, r: 'ok', t: '', l: [] },
        { s: 'xx', n: 1.5, r: 'ok', t: '', l: [] },
        { s: 'xx', n: 1, e: 'not an address', r: 'ok', t: '', l: [] },
        { s: 'xx', n: 1, e: 'a@b.test', r: 'no', t: '', l: [] },
        { s: 'xx', n: 1, r: 'ok', t: 'xx', l: [] },
        { s: 'xx', n: 1, r: 'ok', t: '', l: ['a', 'b'] },
      ],
      true,
    ],
    [
      'pipes and transforms',
      z
        .string()
        .transform((text) => text.length)
        .pipe(z.number().max(3)),
      ['ab', 'abcd', 1],
      true,
    ],
    [
      'nesting against a small limit',
      z.object({ a: z.object({ b: z.object({}) }), c: z.unknown().optional() }),
      [{ a: { b: {} } }, { a: { b: {} }, c: [] }, { a: { b: {} }, c: [[]] }],
      true,
      2,
    ],
    [
      'walked objects and arrays beyond a small limit',
      z.union([z.object({ a: z.object({ b: z.object({}) }) }), z.array(z.array(z.array(z.number())))]),
      [{ a: { b: {} } }, [[[1]]], [[]]],
      true,
      1,
    ],
  ])('%s: zod’s output, or zod decides', (_, schema, values, takesSome, maxDepth = maxRequestDepth) => {
    const taken = values.filter((value) => sameAsZod(schema, value, maxDepth));
    expect(taken.length > 0).toBe(takesSome);
  });
});

/** Values that break a field or just pass: wrong types, limits and their neighbours, odd strings, prototype keys. */
const replacement = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -0,
    1,
    -1,
    2,
    -2,
    0.5,
    1.5,
    2.0000000001,
    128,
    129,
    20,
    21,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    '',
    'NaN',
    'Infinity',
    '1',
    'true',
    'null',
    'function',
    'text',
    'user',
    'assistant',
    'tool',
    'auto',
    'high',
    '__proto__',
    'constructor',
    '😀',
    'data:image/png;base64,iVBORw0KGgo=',
    [],
    [''],
    ['a', 'b', 'c', 'd', 'e'],
    {},
    { type: 'text', text: 'x' },
    { type: 'function', function: { name: 'f' } },
    { constructor: { prototype: {} } },
    { toString: 'x', valueOf: 1 },
  ),
);

/** The number of values in `value`, itself included. */
function countNodes(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  return Object.values(value).reduce<number>((count, item) => count + countNodes(item), 1);
}

/** `value` with its `pick`-th value (counted as a walk meets them, `value` itself first) replaced by `replacement`. */
function replaceNode(value: unknown, pick: number, replacement: unknown): unknown {
  let countdown = pick % countNodes(value);
  const rebuild = (node: unknown): unknown => {
    if (countdown-- === 0) return replacement;
    if (Array.isArray(node)) return node.map(rebuild);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, rebuild(item)]));
  };
  return rebuild(value);
}

/** An own property, `__proto__` included (JSON.stringify writes it as a key). */
function withKey(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

/** Mostly `valid`, now and then any of the replacements. */
const mostly = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 15 }, { arbitrary: replacement as fc.Arbitrary<unknown>, weight: 1 });

const oddKey = fc.constantFrom('__proto__', 'constructor', 'toString', 'cache_control', 'extra', '');
/** Now and then an extra own key, `__proto__` included. */
const withOddKeys = (object: fc.Arbitrary<Record<string, unknown>>) =>
  fc
    .tuple(object, fc.array(fc.tuple(oddKey, replacement), { maxLength: 2 }), fc.nat(4))
    .map(([base, keys, chance]) =>
      chance > 0 ? base : keys.reduce((built, [key, value]) => withKey(built, key, value), { ...base }),
    );

const textPart = withOddKeys(fc.record({ type: mostly(fc.constant('text')), text: mostly(fc.string()) }));
const part = fc.oneof(
  { arbitrary: textPart, weight: 30 },
  fc.record({ type: fc.constant('refusal'), refusal: mostly(fc.string()) }),
  fc.record({
    type: fc.constant('image_url'),
    image_url: fc.record(
      {
        url: fc.constantFrom('https://x.test/a.png', 'data:image/png;base64,AA==', 'data:image/png;base64,AA==', 'x'),
        detail: fc.constantFrom('low', 'max'),
      },
      { requiredKeys: ['url'] },
    ),
  }),
  fc.record({ type: fc.constantFrom('input_audio', 'file', 'video'), input_audio: replacement, file: replacement }),
);
const content = fc.oneof(fc.string(), fc.array(part, { maxLength: 2 }));

const toolCall = withOddKeys(
  fc.record({
    id: mostly(fc.constantFrom('c1', 'c2')),
    type: mostly(fc.constant('function')),
    function: mostly(
      fc.record({ name: mostly(fc.constantFrom('f', 'g')), arguments: mostly(fc.constantFrom('{}', '')) }),
    ),
  }),
);

const reasoningDetail = fc.record(
  {
    type: mostly(fc.constant('reasoning.text')),
    text: mostly(fc.string()),
    index: mostly(fc.nat()),
    id: fc.constant(null),
  },
  { requiredKeys: ['type'] },
);

const message = withOddKeys(
  fc.oneof(
    fc.record(
      {
        role: mostly(fc.constantFrom('system', 'developer', 'user')),
        content: mostly(content),
        name: mostly(fc.string()),
      },
      { requiredKeys: ['role', 'content'] },
    ),
    fc.record(
      {
        role: fc.constant('assistant'),
        content: mostly(fc.oneof(content, fc.constant(null))),
        tool_calls: mostly(fc.array(toolCall, { minLength: 1, maxLength: 2 })),
        reasoning: mostly(fc.oneof(fc.string(), fc.constant(null))),
        reasoning_details: mostly(fc.array(reasoningDetail, { maxLength: 2 })),
      },
      { requiredKeys: ['role'] },
    ),
    fc.record({
      role: fc.constant('tool'),
      tool_call_id: mostly(fc.constantFrom('c1', 'c2')),
      content: mostly(content),
    }),
  ),
);

const requestLike = withOddKeys(
  fc.record(
    {
      model: mostly(fc.constantFrom('a/b', 'ü/模型')),
      models: mostly(fc.array(fc.constantFrom('a/b', 'c/d'), { minLength: 1, maxLength: 2 })),
      messages: mostly(fc.array(message, { minLength: 1, maxLength: 4 })),
      stream: mostly(fc.boolean()),
      stream_options: mostly(
        fc.record({ include_usage: mostly(fc.oneof(fc.boolean(), fc.constant(null))) }, { requiredKeys: [] }),
      ),
      tools: mostly(fc.constantFrom([tool('f')], [tool('f'), tool('g')])),
      tool_choice: mostly(fc.constantFrom('auto', 'none', 'required', { type: 'function', function: { name: 'f' } })),
      temperature: mostly(fc.double({ min: 0, max: 2, noNaN: true })),
      top_p: mostly(fc.double({ min: 0, max: 1, noNaN: true })),
      max_tokens: mostly(fc.integer({ min: 1, max: 1_000_000 })),
      stop: mostly(fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 4 }))),
      seed: mostly(fc.integer()),
      presence_penalty: mostly(fc.double({ min: -2, max: 2, noNaN: true })),
      n: mostly(fc.integer({ min: 1, max: 128 })),
      reasoning: mostly(
        fc.record(
          { effort: mostly(fc.constantFrom('low', 'xhigh')), max_tokens: mostly(fc.integer({ min: 1 })) },
          { requiredKeys: [] },
        ),
      ),
      reasoning_effort: mostly(fc.constantFrom('none', 'medium')),
      logit_bias: mostly(
        fc.dictionary(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), { maxKeys: 2 }),
      ),
      metadata: mostly(fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })),
      provider: mostly(
        fc.record({ require_parameters: mostly(fc.boolean()), order: fc.constant(['x']) }, { requiredKeys: [] }),
      ),
      transforms: fc.jsonValue({ maxDepth: 3 }),
    },
    { requiredKeys: ['model', 'messages'] },
  ),
);
