import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { redactorFor } from '../http/redact.js';
import { fixture, rejection, sseEvents } from '../test-support.js';
import { OpenAIChunkConverter } from './convert-chunk.js';
import { decodeOpenAIStream } from './decode-stream.js';
import { isPlainChunk, plainChoiceFields, unreadChunkFields } from './plain-chunk.js';
import { upstreamChunkSchema } from './upstream-schemas.js';

const fixtures = readdirSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__')).filter((name) =>
  name.endsWith('.sse.txt'),
);

/** The object schema inside optional/nullable/array wrappers. */
function objectIn(schema: z.ZodType): z.ZodObject {
  let inner: unknown = schema;
  while (!(inner instanceof z.ZodObject)) {
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap();
    else if (inner instanceof z.ZodArray) inner = inner.element;
    else throw new Error('unexpected schema');
  }
  return inner;
}

const choiceSchema = objectIn(upstreamChunkSchema.shape.choices);
const deltaSchema = objectIn(choiceSchema.shape.delta);

const crafted: unknown[] = [
  { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' } }] },
  { choices: [{ index: 0, delta: { content: 'Hi', refusal: null }, finish_reason: null, logprobs: null }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null },
  { choices: [] },
  { choices: [{ index: 0, delta: { content: 5 } }] },
  { choices: [{ index: -1, delta: { content: 'x' } }] },
  { choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 3 }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call', function: { name: 'f' } }] } }] },
  { choices: [{ index: 0, delta: { reasoning: 'hmm' } }] },
  { choices: [{ index: 0, delta: { content: 'x' }, something_new: 1 }] },
  { choices: 'nope' },
  { choices: null, usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
  { weird_top_level: true, choices: [] },
];

describe('isPlainChunk', () => {
  it('checks every field the schema gives a choice, and passes unchecked only fields the schema does not have', () => {
    expect(new Set(Object.keys(choiceSchema.shape))).toEqual(plainChoiceFields);
    for (const field of unreadChunkFields) expect(Object.keys(upstreamChunkSchema.shape)).not.toContain(field);
    // A delta's fields other than role and content are passed only when null, which the (lenient) schema accepts.
    expect(Object.keys(deltaSchema.shape)).not.toContain('role');
    const nulls = Object.fromEntries(Object.keys(deltaSchema.shape).map((field) => [field, null]));
    expect(deltaSchema.safeParse(nulls).success).toBe(true);
  });

  it('passes only chunks the schema accepts, and they convert to the same parts as the schema’s output', () => {
    const chunks = [
      ...crafted,
      ...fixtures.flatMap((name) =>
        fixture('openai', name)
          .split('\n')
          .filter((line) => line.startsWith('data: {'))
          .map((line) => JSON.parse(line.slice(6)) as unknown),
      ),
    ];
    let plain = 0;
    for (const json of chunks) {
      if (!isPlainChunk(json)) continue;
      plain += 1;
      const parsed = upstreamChunkSchema.safeParse(json);
      expect(parsed.success, JSON.stringify(json)).toBe(true);
      const ids = () => 'call_fixed';
      expect(new OpenAIChunkConverter(ids).convert(json)).toEqual(new OpenAIChunkConverter(ids).convert(parsed.data!));
    }
    expect(plain).toBeGreaterThan(10);
  });

  it('leaves wrongly typed chunks to the schema, which rejects them as before', async () => {
    const context = { providerId: 'up', secrets: redactorFor(null) };
    const error = await rejection(async () => {
      const body = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 5 } }] })}\n\n`;
      for await (const part of decodeOpenAIStream(sseEvents(body, 'up'), context)) void part;
    });
    expect(error.status).toBe(502);
    expect(error.message).toContain('not a chat.completion.chunk');
  });
});
