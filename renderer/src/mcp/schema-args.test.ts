import { describe, expect, it } from 'vitest';
import { initialArguments, parseTyped, schemaFields, validateArguments, withValueAt } from './schema-args.js';

describe('schemaFields', () => {
  it('reads nullable types, enums without a type, and nested objects', () => {
    const fields = schemaFields({
      type: 'object',
      properties: {
        note: { type: ['string', 'null'] },
        size: { enum: [1, 2, 3] },
        box: { type: 'object', properties: { inner: { type: 'object', properties: { on: { type: 'boolean' } } } } },
      },
    });
    expect(fields?.map((field) => [field.path, field.kind])).toEqual([
      ['note', 'simple'],
      ['size', 'simple'],
      ['box', 'object'],
    ]);
    expect(fields?.[1]).toMatchObject({ type: 'number', enum: [1, 2, 3] });
    const box = fields?.[2];
    expect(box?.kind === 'object' && box.fields[0]?.kind === 'object' && box.fields[0].fields[0]?.path).toBe(
      'box.inner.on',
    );
  });

  it('gives up on what the form cannot show', () => {
    expect(schemaFields({ properties: { any: { anyOf: [{ type: 'string' }, { type: 'number' }] } } })).toBeNull();
    expect(schemaFields({ properties: { rows: { type: 'array', items: { type: 'object' } } } })).toBeNull();
    expect(schemaFields({ properties: { ref: { $ref: '#/definitions/x' } } })).toBeNull();
    expect(schemaFields(undefined)).toEqual([]);
  });
});

describe('the arguments', () => {
  const fields = schemaFields({
    type: 'object',
    properties: {
      count: { type: 'integer', default: 2 },
      where: { type: 'object', properties: { path: { type: 'string', default: '/' } }, required: ['path'] },
      flags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
    },
    required: ['where'],
  })!;

  it('start from the defaults, nested ones too', () => {
    expect(initialArguments(fields)).toEqual({ count: 2, where: { path: '/' } });
  });

  it('are checked field by field, by path', () => {
    expect(validateArguments(fields, {})).toEqual(new Map([['where', 'Required.']]));
    expect(validateArguments(fields, { count: 1.5, where: {}, flags: ['a', 'c'] })).toEqual(
      new Map([
        ['count', 'Must be a whole number.'],
        ['where.path', 'Required.'],
        ['flags', 'Each item: must be one of "a", "b".'],
      ]),
    );
    expect(validateArguments(fields, { where: { path: 'x' }, flags: ['b'] }).size).toBe(0);
  });

  it('change at a path, and an emptied object goes', () => {
    expect(withValueAt({ where: { path: '/' } }, ['where', 'path'], 'x')).toEqual({ where: { path: 'x' } });
    expect(withValueAt({ count: 2, where: { path: '/' } }, ['where', 'path'], undefined)).toEqual({ count: 2 });
    expect(parseTyped('integer', ' 12 ')).toBe(12);
    expect(parseTyped('number', 'twelve')).toBe('twelve');
    expect(parseTyped('boolean', 'true')).toBe(true);
  });
});
