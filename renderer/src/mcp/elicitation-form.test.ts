import { describe, expect, it } from 'vitest';
import {
  elicitationContent,
  elicitationFields,
  formProblems,
  initialValues,
  type FormValues,
} from './elicitation-form.js';

// The kinds of field server-everything's trigger-elicitation-request asks for.
const schema = {
  type: 'object' as const,
  properties: {
    name: { type: 'string', title: 'String', description: 'Your full, legal name' },
    check: { type: 'boolean', title: 'Boolean' },
    email: { type: 'string', format: 'email' },
    birthdate: { type: 'string', format: 'date' },
    integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    pet: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'], default: 'pet-1' },
    fish: {
      type: 'array',
      minItems: 1,
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
        ],
      },
    },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
  },
  required: ['name'],
};

describe('elicitation forms', () => {
  it('reads each kind of field with its label, input type, limits, options and default', () => {
    const fields = elicitationFields(schema);
    expect(fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ['name', 'text', true],
      ['check', 'boolean', false],
      ['email', 'text', false],
      ['birthdate', 'text', false],
      ['integer', 'number', false],
      ['pet', 'choice', false],
      ['fish', 'choices', false],
      ['size', 'choice', false],
    ]);
    expect(fields[0]).toMatchObject({ label: 'String', description: 'Your full, legal name', inputType: 'text' });
    expect(fields[2]).toMatchObject({ label: 'email', inputType: 'email' });
    expect(fields[3]).toMatchObject({ inputType: 'date' });
    expect(fields[4]).toMatchObject({ integer: true, minimum: 1, maximum: 100, default: 42 });
    expect(fields[5]).toMatchObject({
      options: [
        { value: 'pet-1', label: 'Cats' },
        { value: 'pet-2', label: 'Dogs' },
      ],
    });
    expect(fields[6]).toMatchObject({
      minItems: 1,
      options: [
        { value: 'fish-1', label: 'Tuna' },
        { value: 'fish-2', label: 'Salmon' },
      ],
    });
    expect(fields[7]).toMatchObject({
      options: [
        { value: 's', label: 'Small' },
        { value: 'l', label: 'Large' },
      ],
    });
  });

  it('answers typed values, leaves out optional fields left empty, and checks checkbox groups', () => {
    const fields = elicitationFields(schema);
    const values: FormValues = { ...initialValues(fields), name: 'Ada', integer: '7' };
    expect(formProblems(fields, values)).toEqual(new Map([['fish', 'Choose at least 1.']]));
    values.fish = ['fish-2'];
    expect(formProblems(fields, values).size).toBe(0);
    expect(elicitationContent(fields, values)).toEqual({
      name: 'Ada',
      check: false,
      integer: 7,
      pet: 'pet-1',
      fish: ['fish-2'],
    });
  });
});
