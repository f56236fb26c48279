import { describe, expect, it } from 'vitest';
import { convertToGeminiParameters, convertToGeminiSchema } from './convert-to-gemini-schema.js';

describe('convertToGeminiSchema', () => {
  it('drops $schema, additionalProperties and other keywords outside the subset', () => {
    expect(
      convertToGeminiSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: {
          city: { type: 'string', description: 'City name', minLength: 1, examples: ['Paris'], default: 'Paris' },
        },
        required: ['city', 'missing'],
      }),
    ).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name', minLength: 1 } },
      required: ['city'],
    });
  });

  it('turns anyOf [X, null] and type [X, "null"] into X + nullable', () => {
    expect(
      convertToGeminiSchema({
        type: 'object',
        properties: {
          a: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }], description: 'A' },
          b: { type: ['integer', 'null'] },
          c: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', maxLength: 5, nullable: true, description: 'A' },
        b: { type: 'integer', nullable: true },
        c: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
    });
  });

  it('inlines $ref from $defs and definitions, and cuts recursion to a plain object', () => {
    expect(
      convertToGeminiSchema({
        type: 'object',
        $defs: { Unit: { type: 'string', enum: ['c', 'f'] } },
        definitions: { Node: { type: 'object', properties: { child: { $ref: '#/definitions/Node' } } } },
        properties: {
          unit: { $ref: '#/$defs/Unit', description: 'Unit' },
          tree: { $ref: '#/definitions/Node' },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['c', 'f'], description: 'Unit' },
        tree: { type: 'object', properties: { child: { type: 'object' } } },
      },
    });
  });

  it('merges allOf, turns const into enum, keeps string enums only and allowed formats only', () => {
    expect(
      convertToGeminiSchema({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { const: 'x' } }, required: ['b'] },
        ],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string', enum: ['x'] } },
      required: ['a', 'b'],
    });
    expect(convertToGeminiSchema({ type: 'integer', enum: [1, 2] })).toEqual({ type: 'integer' });
    expect(convertToGeminiSchema({ type: 'string', format: 'email' })).toEqual({ type: 'string' });
    expect(convertToGeminiSchema({ type: 'string', format: 'date-time' })).toEqual({
      type: 'string',
      format: 'date-time',
    });
    expect(convertToGeminiSchema({ type: 'array', items: [{ type: 'number', format: 'double' }] })).toEqual({
      type: 'array',
      items: { type: 'number', format: 'double' },
    });
  });
});

describe('convertToGeminiParameters', () => {
  it('leaves out parameters of a function that takes none', () => {
    expect(convertToGeminiParameters(undefined)).toBeUndefined();
    expect(convertToGeminiParameters({ type: 'object', properties: {} })).toBeUndefined();
    expect(convertToGeminiParameters({ type: 'object', additionalProperties: false })).toBeUndefined();
    expect(convertToGeminiParameters({ type: 'object', properties: { q: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
    });
  });
});
