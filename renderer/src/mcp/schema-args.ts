// A tool's input schema (JSON Schema, as MCP servers send it) read as the fields of a form: strings, numbers,
// integers, booleans, enums, arrays of those, and objects of all these to any depth. A schema with anything else
// (anyOf, arrays of objects, references) is left to the raw JSON editor. The arguments' value itself is the one
// state: the form and the JSON editor both show and change it, and `validateArguments` says what is wrong, by path.

export type SimpleType = 'string' | 'number' | 'integer' | 'boolean';

interface FieldBase {
  name: string;
  /** `parent.child`, as errors are keyed. */
  path: string;
  title?: string;
  description?: string;
  required: boolean;
  default?: unknown;
}

export type SchemaField =
  | (FieldBase & { kind: 'simple'; type: SimpleType; enum?: readonly (string | number)[] })
  | (FieldBase & { kind: 'array'; items: { type: SimpleType; enum?: readonly (string | number)[] } })
  | (FieldBase & { kind: 'object'; fields: SchemaField[] });

type JsonSchema = Record<string, unknown>;

const simpleTypes: readonly string[] = ['string', 'number', 'integer', 'boolean'];

/** The form's fields, or null when the schema has a part the form cannot show (the JSON editor then). */
export function schemaFields(schema: unknown): SchemaField[] | null {
  if (!isObject(schema)) return [];
  return objectFields(schema, '');
}

function objectFields(schema: JsonSchema, prefix: string): SchemaField[] | null {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : []);
  const fields: SchemaField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!isObject(property)) return null;
    const field = fieldOf(name, prefix ? `${prefix}.${name}` : name, property, required.has(name));
    if (!field) return null;
    fields.push(field);
  }
  return fields;
}

function fieldOf(name: string, path: string, schema: JsonSchema, required: boolean): SchemaField | null {
  const base: FieldBase = {
    name,
    path,
    required,
    ...(typeof schema.title === 'string' ? { title: schema.title } : {}),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    ...('default' in schema ? { default: schema.default } : {}),
  };
  const simple = simpleOf(schema);
  if (simple) return { ...base, kind: 'simple', ...simple };
  const type = typeOf(schema);
  if (type === 'array' && isObject(schema.items)) {
    const items = simpleOf(schema.items);
    return items ? { ...base, kind: 'array', items } : null;
  }
  if (type === 'object' && !('anyOf' in schema) && !('oneOf' in schema)) {
    const fields = objectFields(schema, path);
    return fields ? { ...base, kind: 'object', fields } : null;
  }
  return null;
}

function simpleOf(schema: JsonSchema): { type: SimpleType; enum?: (string | number)[] } | null {
  const values = Array.isArray(schema.enum) ? schema.enum : undefined;
  if (values) {
    if (!values.every((value) => typeof value === 'string' || typeof value === 'number')) return null;
    const type = typeOf(schema) ?? (values.every((value) => typeof value === 'number') ? 'number' : 'string');
    return simpleTypes.includes(type) ? { type: type as SimpleType, enum: values as (string | number)[] } : null;
  }
  const type = typeOf(schema);
  return type && simpleTypes.includes(type) ? { type: type as SimpleType } : null;
}

/** `"string"`, and `["string", "null"]` as `"string"`; undefined for none or a real union. */
function typeOf(schema: JsonSchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    return types.length === 1 && typeof types[0] === 'string' ? types[0] : undefined;
  }
  return undefined;
}

/** The arguments to start from: every default the schema gives. */
export function initialArguments(fields: readonly SchemaField[]): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.default !== undefined) value[field.name] = field.default;
    else if (field.kind === 'object') {
      const inner = initialArguments(field.fields);
      if (Object.keys(inner).length > 0) value[field.name] = inner;
    }
  }
  return value;
}

/** What is wrong with each field, by path; empty when the arguments may be sent. */
export function validateArguments(fields: readonly SchemaField[], value: unknown): Map<string, string> {
  const errors = new Map<string, string>();
  checkObject(fields, isObject(value) ? value : {}, errors);
  return errors;
}

function checkObject(fields: readonly SchemaField[], value: Record<string, unknown>, errors: Map<string, string>) {
  for (const field of fields) {
    const given = value[field.name];
    if (given === undefined) {
      if (field.required) errors.set(field.path, 'Required.');
      continue;
    }
    if (field.kind === 'object') {
      if (isObject(given)) checkObject(field.fields, given, errors);
      else errors.set(field.path, 'Must be an object.');
    } else if (field.kind === 'array') {
      if (!Array.isArray(given)) errors.set(field.path, 'Must be a list.');
      else {
        const problem = given.map((item) => simpleProblem(field.items, item)).find((found) => found !== null);
        if (problem) errors.set(field.path, `Each item: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`);
      }
    } else {
      const problem = simpleProblem(field, given);
      if (problem) errors.set(field.path, problem);
    }
  }
}

function simpleProblem(field: { type: SimpleType; enum?: readonly (string | number)[] }, value: unknown) {
  if (field.enum && !field.enum.includes(value as string | number)) {
    return `Must be one of ${field.enum.map((option) => JSON.stringify(option)).join(', ')}.`;
  }
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? null : 'Must be text.';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'Must be true or false.';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'Must be a number.';
    case 'integer':
      return Number.isInteger(value) ? null : 'Must be a whole number.';
  }
}

/** What a person typed into a field of this type, as the value to send (text that is no number stays text). */
export function parseTyped(type: SimpleType, text: string): unknown {
  if (type === 'string') return text;
  const trimmed = text.trim();
  if (type === 'boolean') return trimmed === 'true' ? true : trimmed === 'false' ? false : text;
  const number = Number(trimmed);
  return trimmed !== '' && Number.isFinite(number) ? number : text;
}

/** The value at `path` of the arguments, or undefined. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((current, key) => (isObject(current) ? current[key] : undefined), value);
}

/** The arguments with the value at `path` replaced (undefined removes it; an emptied object goes too). */
export function withValueAt(
  value: Record<string, unknown>,
  path: readonly string[],
  next: unknown,
): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) return value;
  const copy = { ...value };
  const child = rest.length === 0 ? next : withValueAt(isObject(copy[key]) ? copy[key] : {}, rest, next);
  if (child === undefined || (rest.length > 0 && isObject(child) && Object.keys(child).length === 0)) delete copy[key];
  else copy[key] = child;
  return copy;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
