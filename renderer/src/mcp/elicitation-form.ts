// An MCP elicitation's requested schema (a flat object of primitive fields: the spec's restricted subset) read as
// the fields of a form, and what the person filled in read back as the answer's content. Titled options come as
// `oneOf`/`anyOf` of `{ const, title }` or as the older `enum` + `enumNames`; both become labelled options.

import type { McpElicitation, McpElicitationContent } from '../../../shared/bridge/types.js';

export interface ElicitationOption {
  value: string;
  label: string;
}

interface FieldBase {
  name: string;
  label: string;
  description?: string;
  required: boolean;
}

export type ElicitationField =
  | (FieldBase & {
      kind: 'text';
      /** The input's type, from the schema's `format`. */
      inputType: 'text' | 'email' | 'url' | 'date' | 'datetime-local';
      minLength?: number;
      maxLength?: number;
      default?: string;
    })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'choice'; options: ElicitationOption[]; default?: string })
  | (FieldBase & {
      kind: 'choices';
      options: ElicitationOption[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    });

/** What the form holds per field: text as typed, a checkbox's state, the chosen options. */
export type FormValues = Record<string, string | boolean | string[]>;

type Schema = Record<string, unknown>;

const inputTypes: Record<string, 'email' | 'url' | 'date' | 'datetime-local'> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

export function elicitationFields(schema: McpElicitation['requestedSchema']): ElicitationField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => fieldOf(name, property, required.has(name)));
}

function fieldOf(name: string, schema: Schema, required: boolean): ElicitationField {
  const base: FieldBase = {
    name,
    label: text(schema.title) ?? name,
    required,
    ...(text(schema.description) ? { description: text(schema.description) } : {}),
  };
  const options = optionsOf(schema);
  if (schema.type === 'array') {
    const items = isObject(schema.items) ? optionsOf(schema.items) : undefined;
    return {
      ...base,
      kind: 'choices',
      options: items ?? [],
      ...numberEntry('minItems', schema.minItems),
      ...numberEntry('maxItems', schema.maxItems),
      ...(Array.isArray(schema.default) ? { default: schema.default.filter((item) => typeof item === 'string') } : {}),
    };
  }
  if (options) {
    return { ...base, kind: 'choice', options, ...(text(schema.default) ? { default: text(schema.default) } : {}) };
  }
  if (schema.type === 'boolean') {
    return { ...base, kind: 'boolean', ...(typeof schema.default === 'boolean' ? { default: schema.default } : {}) };
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    return {
      ...base,
      kind: 'number',
      integer: schema.type === 'integer',
      ...numberEntry('minimum', schema.minimum),
      ...numberEntry('maximum', schema.maximum),
      ...numberEntry('default', schema.default),
    };
  }
  return {
    ...base,
    kind: 'text',
    inputType: inputTypes[text(schema.format) ?? ''] ?? 'text',
    ...numberEntry('minLength', schema.minLength),
    ...numberEntry('maxLength', schema.maxLength),
    ...(text(schema.default) !== undefined ? { default: text(schema.default) } : {}),
  };
}

/** The labelled options of an enum-like schema, or undefined when it has none. */
function optionsOf(schema: Schema): ElicitationOption[] | undefined {
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (titled) {
    return titled.filter(isObject).flatMap((option) => {
      const value = text(option.const);
      return value === undefined ? [] : [{ value, label: text(option.title) ?? value }];
    });
  }
  if (!Array.isArray(schema.enum)) return undefined;
  const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  return schema.enum.flatMap((value, index) =>
    typeof value === 'string' ? [{ value, label: text(names[index]) ?? value }] : [],
  );
}

/** The form as it opens: every default the schema gives. */
export function initialValues(fields: readonly ElicitationField[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    if (field.kind === 'boolean') values[field.name] = field.default ?? false;
    else if (field.kind === 'choices') values[field.name] = field.default ?? [];
    else values[field.name] = field.default === undefined ? '' : String(field.default);
  }
  return values;
}

/** What the browser's own checks cannot say (checkbox groups): the problem per field, by name. */
export function formProblems(fields: readonly ElicitationField[], values: FormValues): Map<string, string> {
  const problems = new Map<string, string>();
  for (const field of fields) {
    if (field.kind !== 'choices') continue;
    const chosen = (values[field.name] as string[] | undefined)?.length ?? 0;
    const least = field.minItems ?? (field.required ? 1 : 0);
    if (chosen < least) problems.set(field.name, `Choose at least ${least}.`);
    else if (field.maxItems !== undefined && chosen > field.maxItems) {
      problems.set(field.name, `Choose at most ${field.maxItems}.`);
    }
  }
  return problems;
}

/** The answer's content: typed values, and nothing for optional fields left empty. */
export function elicitationContent(fields: readonly ElicitationField[], values: FormValues): McpElicitationContent {
  const content: McpElicitationContent = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') content[field.name] = value === true;
    else if (field.kind === 'choices') {
      const chosen = Array.isArray(value) ? value : [];
      if (chosen.length > 0 || field.required) content[field.name] = chosen;
    } else if (typeof value === 'string' && value !== '') {
      content[field.name] = field.kind === 'number' ? Number(value) : value;
    }
  }
  return content;
}

function numberEntry<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === 'number' && Number.isFinite(value) ? ({ [key]: value } as Record<K, number>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
