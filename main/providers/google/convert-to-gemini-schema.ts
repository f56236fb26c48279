// JSON Schema (what callers put in `tools[].function.parameters`) → the OpenAPI 3.0 subset Gemini's
// `functionDeclarations[].parameters` and `responseSchema` accept. Gemini answers 400 for keywords outside that
// subset, so this keeps an allow-list and rewrites what has an equivalent:
// `$ref` is inlined (from `$defs`/`definitions`; a recursive one becomes a plain object), `type: [X, "null"]` and
// `anyOf: [X, {type: "null"}]` become X + `nullable: true`, `oneOf` becomes `anyOf`, `allOf` is merged, `const`
// becomes a one-value `enum`, non-string enums and unsupported `format`s are dropped.

type Schema = Record<string, unknown>;

const keptKeywords = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minProperties',
  'maxProperties',
  'propertyOrdering',
  'example',
]);

/** The formats Gemini accepts, by type. */
const allowedFormats: Record<string, readonly string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

/** Deeper than this is a broken or hostile schema: what lies below is left unconstrained. */
const maxDepth = 32;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isNullSchema(value: unknown): boolean {
  return (
    isSchema(value) &&
    value.type === 'null' &&
    Object.keys(value).every((key) => key === 'type' || key === 'description')
  );
}

interface Context {
  root: Schema;
  /** The `$ref`s being inlined on the current path (a repeat is recursion). */
  refs: readonly string[];
  depth: number;
}

function resolveRef(ref: string, root: Schema): Schema | null {
  if (!ref.startsWith('#/')) return null;
  let node: unknown = root;
  for (const token of ref.slice(2).split('/')) {
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isSchema(node)) return null;
    node = node[key];
  }
  return isSchema(node) ? node : null;
}

function mergeSchemas(target: Schema, source: Schema): Schema {
  const merged: Schema = { ...target, ...source };
  if (isSchema(target.properties) && isSchema(source.properties)) {
    merged.properties = { ...target.properties, ...source.properties };
  }
  if (Array.isArray(target.required) && Array.isArray(source.required)) {
    merged.required = [...new Set([...target.required, ...source.required])];
  }
  return merged;
}

function convert(input: unknown, context: Context): Schema {
  if (!isSchema(input) || context.depth > maxDepth) return {};
  const inner: Context = { ...context, depth: context.depth + 1 };

  if (typeof input.$ref === 'string') {
    const { $ref: ref, ...siblings } = input;
    const resolved = context.refs.includes(ref) ? null : resolveRef(ref, context.root);
    const base = resolved ? convert(resolved, { ...inner, refs: [...context.refs, ref] }) : { type: 'object' }; // recursive or unresolvable: Gemini schemas cannot express it
    return { ...base, ...convert(siblings, inner) };
  }

  let out: Schema = {};
  for (const [key, value] of Object.entries(input)) {
    if (keptKeywords.has(key)) out[key] = value;
  }

  if (Array.isArray(input.type)) {
    const types = input.type.filter((type): type is string => typeof type === 'string');
    const nonNull = types.filter((type) => type !== 'null');
    delete out.type;
    if (types.includes('null')) out.nullable = true;
    if (nonNull.length === 1) out.type = nonNull[0];
    else if (nonNull.length > 1) out.anyOf = nonNull.map((type) => convert({ ...input, type }, inner));
  } else if (input.type === 'null') {
    delete out.type;
    out.nullable = true;
  }

  if ('const' in input && input.enum === undefined) out.enum = [input.const];
  if (Array.isArray(out.enum)) {
    if (out.enum.every((value) => typeof value === 'string')) out.type ??= 'string';
    else delete out.enum; // Gemini takes string enums only; the type still constrains the value
  }

  if (typeof out.format === 'string') {
    const allowed = allowedFormats[typeof out.type === 'string' ? out.type : ''] ?? [];
    if (!allowed.includes(out.format)) delete out.format;
  }

  if (isSchema(input.properties)) {
    const properties: Schema = {};
    for (const [name, property] of Object.entries(input.properties)) properties[name] = convert(property, inner);
    out.properties = properties;
    out.type ??= 'object';
    if (Array.isArray(input.required)) {
      const required = input.required.filter((name) => typeof name === 'string' && name in properties);
      if (required.length > 0) out.required = required;
    }
  }
  if (input.items !== undefined) {
    out.items = convert(Array.isArray(input.items) ? input.items[0] : input.items, inner);
    out.type ??= 'array';
  }

  const alternatives = [input.anyOf, input.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (alternatives) {
    const nonNull = alternatives.filter((member) => !isNullSchema(member));
    if (nonNull.length < alternatives.length) out.nullable = true;
    const converted = nonNull.map((member) => convert(member, inner));
    if (converted.length === 1) out = mergeSchemas(converted[0]!, out);
    else if (converted.length > 1) out.anyOf = converted;
  }
  if (Array.isArray(input.allOf)) {
    for (const member of input.allOf) out = mergeSchemas(out, convert(member, inner));
  }
  return out;
}

/** A JSON Schema in Gemini's subset. */
export function convertToGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return convert(schema, { root: schema, refs: [], depth: 0 });
}

/**
 * Function parameters for Gemini, or undefined for a function without any: Gemini rejects an object schema with
 * no properties, so such a declaration goes without `parameters`.
 */
export function convertToGeminiParameters(
  parameters: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (parameters === undefined) return undefined;
  const converted = convertToGeminiSchema(parameters);
  const properties = converted.properties;
  if (converted.type === 'object' && (!isSchema(properties) || Object.keys(properties).length === 0)) return undefined;
  if (Object.keys(converted).length === 0) return undefined;
  return converted;
}
