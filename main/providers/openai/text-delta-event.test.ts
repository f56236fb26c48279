import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixture } from '../test-support.js';
import { OpenAIChunkConverter } from './convert-chunk.js';
import { textDeltaParts } from './text-delta-event.js';
import { upstreamChunkSchema } from './upstream-schemas.js';

const fixtures = readdirSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__')).filter((name) =>
  name.endsWith('.sse.txt'),
);

const recorded = fixtures.flatMap((name) =>
  fixture('openai', name)
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => line.slice(6).trim()),
);

const text = (content: string, extra = '') =>
  `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${content}}${extra}}]}`;

/** Events the fast path must decode exactly as the general path, or leave to it. */
const crafted = [
  text('"Hi"'),
  text('""'),
  text(String.raw`"line\nnext \"quoted\" back\\slash \/ tab\t"`),
  text(String.raw`"caf\u00e9"`),
  text('"été 😀 \u2028"'),
  text('"x"', ',"logprobs":null,"finish_reason":null,"native_finish_reason":null'),
  text('"x"', ',"finish_reason":"stop"'),
  text('"x"', ',"logprobs":{"content":[]}'),
  text('"x","refusal":null,"reasoning":null'),
  text('"x","refusal":"no"'),
  text('"x","content":null'),
  text('null'),
  text('5'),
  '{"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"}}]}',
  '{"choices":[{"index":0,"delta":{"role":"user","content":"Hi"}}]}',
  '{"choices":[{"index":3,"delta":{"content":"Hi"}}],"usage":null}',
  '{"choices":[{"index":01,"delta":{"content":"Hi"}}]}',
  '{"choices":[{"index":-1,"delta":{"content":"Hi"}}]}',
  '{"choices":[{"index":0,"delta":{"content":"Hi"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}',
  '{"choices":[{"index":0,"delta":{"content":"Hi"}}],"error":{"message":"no"}}',
  '{"choices":[{"index":0,"delta":{"content":"Hi"}}],"something_new":1}',
  '{"created":1.5,"choices":[{"index":0,"delta":{"content":"Hi"}}]}',
  '{"created":-3,"id":null,"choices":[{"index":0,"delta":{"content":"Hi"}}],"obfuscation":"ab"}',
  '{"choices": [{"index": 0, "delta": {"content": "Hi"}}]}',
  '{"choices":[{"index":0,"delta":{"content":"a\u0001b"}}]}',
  '{"choices":[{"index":0,"delta":{"content":"Hi"}},{"index":1,"delta":{"content":"Ho"}}]}',
  '{"choices":[{"index":0,"delta":{"content":"Hi"}}]',
];

/** What JSON.parse, the schema and the converter make of `data`; null when that path rejects it. */
function generalParts(data: string) {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (json !== null && typeof json === 'object' && 'error' in json && json.error) return null;
  const chunk = upstreamChunkSchema.safeParse(json);
  return chunk.success ? new OpenAIChunkConverter().convert(chunk.data) : null;
}

describe('textDeltaParts', () => {
  it('gives the parts the general path gives, for every event it takes', () => {
    let taken = 0;
    for (const data of [...crafted, ...recorded]) {
      const parts = textDeltaParts(data);
      if (parts === null) continue;
      taken += 1;
      expect(parts, data).toEqual(generalParts(data));
    }
    expect(taken).toBeGreaterThan(10);
  });

  it('takes the text events of recorded streams and leaves the rest', () => {
    const openAIText = fixture('openai', 'openai-text.sse.txt')
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => line.slice(6));
    const taken = openAIText.filter((data) => textDeltaParts(data) !== null);
    expect(taken.length).toBeGreaterThan(0);
    for (const data of openAIText) {
      if (/"finish_reason":"|"usage":\{|"tool_calls":\[/.test(data)) expect(textDeltaParts(data), data).toBeNull();
    }
  });

  it('leaves an event with an escape it does not copy, or with anything but nulls beside the text, to JSON.parse', () => {
    for (const data of [
      text(String.raw`"caf\u00e9"`),
      text('"x","refusal":"no"'),
      text('"x","content":null'),
      text('"x"', ',"finish_reason":"stop"'),
      '{"choices":[{"index":01,"delta":{"content":"Hi"}}]}',
      '{"choices": [{"index": 0, "delta": {"content": "Hi"}}]}',
      '{"choices":[{"index":0,"delta":{"content":"a\u0001b"}}]}',
    ]) {
      expect(textDeltaParts(data), data).toBeNull();
    }
    expect(textDeltaParts(text('"Hi"'))).toEqual([{ type: 'delta', index: 0, delta: { content: 'Hi' } }]);
    expect(textDeltaParts(text('""'))).toEqual([]);
  });
});
