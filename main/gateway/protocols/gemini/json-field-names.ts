// Google's APIs read a body as proto3 JSON, whose parsers take each field by either of its names: the JSON name
// (lowerCamelCase, `inlineData`) or the proto field name (snake_case, `inline_data`). Clients use both, even in one
// body: the google-genai Python SDK writes `inlineData: {mime_type, data}`. Rather than alias fields where they are
// read, a body is rewritten once, before it is validated, so that every field its zod schema declares is under its
// JSON name. The schema says where the fields are, so what it does not describe as fields keeps its keys exactly:
// records (a function call's `args`, a Gemini Schema's `properties`) have their values walked but never their keys,
// unknown values (a JSON Schema in `parametersJsonSchema`) and fields the schema does not declare are left as they
// came. A field given under both names is a 400: which one the caller meant cannot be known.

import type { z } from 'zod';
import { ApiError } from '../../../../shared/api/index.js';
import { formatPath, maxRequestDepth } from '../../http/validate-chat-request.js';

type Schema = z.core.$ZodType;
/** Where a value is in the body: made as the walk goes down, read only for an error. */
interface Place {
  parent: Place | null;
  key: PropertyKey;
  depth: number;
}
/** `value` (found at `place`) with its fields under their JSON names; `value` itself when nothing was renamed. */
type Rename = (value: unknown, place: Place | null) => unknown;

const asIs: Rename = (value) => value;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const below = (place: Place | null, key: PropertyKey): Place => ({
  parent: place,
  key,
  depth: (place?.depth ?? 0) + 1,
});

function pathOf(place: Place | null): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at = place; at; at = at.parent) path.unshift(at.key);
  return path;
}

/** The proto field name of a JSON name: `thinkingConfig` → `thinking_config`. */
export function protoFieldName(jsonName: string): string {
  return jsonName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function givenTwice(place: Place | null, jsonName: string, protoName: string): ApiError {
  const field = formatPath([...pathOf(place), jsonName]);
  return new ApiError(
    400,
    `Invalid request: ${field} is given twice, as "${jsonName}" and as "${protoName}"; send one.`,
  );
}

/** `value`'s keys with the changed entries replaced, in their order; `value` itself when nothing changed. */
function withChanges(value: Record<string, unknown>, changes: Map<string, [string, unknown]> | undefined): unknown {
  if (!changes) return value;
  // fromEntries defines each key as its own, `__proto__` included, as JSON.parse did.
  return Object.fromEntries(Object.keys(value).map((key) => changes.get(key) ?? [key, value[key]]));
}

function compiler() {
  const renamers = new Map<Schema, Rename>();

  function objectRenamer(schema: z.core.$ZodObject): Rename {
    const { shape } = schema._zod.def;
    const fields = new Map<string, Rename>();
    const jsonNames = new Map<string, string>();
    for (const name of Object.keys(shape)) {
      const rename = renamerOf(shape[name]!);
      if (rename !== asIs) fields.set(name, rename);
      const protoName = protoFieldName(name);
      if (protoName !== name) jsonNames.set(protoName, name);
    }
    if (fields.size === 0 && jsonNames.size === 0) return asIs;
    return (value, place) => {
      if (!isObject(value)) return value;
      let changes: Map<string, [string, unknown]> | undefined;
      for (const key of Object.keys(value)) {
        const jsonName = jsonNames.get(key);
        if (jsonName !== undefined && Object.hasOwn(value, jsonName)) throw givenTwice(place, jsonName, key);
        const name = jsonName ?? key;
        const rename = fields.get(name);
        const field = value[key];
        const renamed = rename ? rename(field, below(place, name)) : field;
        if (jsonName !== undefined || renamed !== field) (changes ??= new Map()).set(key, [name, renamed]);
      }
      return withChanges(value, changes);
    };
  }

  function arrayRenamer(element: Rename): Rename {
    if (element === asIs) return asIs;
    return (value, place) => {
      if (!Array.isArray(value)) return value;
      let renamed: unknown[] | undefined;
      for (let index = 0; index < value.length; index += 1) {
        const item: unknown = value[index];
        const result = element(item, below(place, index));
        if (result !== item) (renamed ??= [...value])[index] = result;
      }
      return renamed ?? value;
    };
  }

  /** A record's keys are the caller's (property names, argument names); only its values can hold fields. */
  function recordRenamer(valueOf: Rename): Rename {
    if (valueOf === asIs) return asIs;
    return (value, place) => {
      if (!isObject(value)) return value;
      let changes: Map<string, [string, unknown]> | undefined;
      for (const key of Object.keys(value)) {
        const item = value[key];
        const result = valueOf(item, below(place, key));
        if (result !== item) (changes ??= new Map()).set(key, [key, result]);
      }
      return withChanges(value, changes);
    };
  }

  /** The first option that renames something: a value of another option's kind is left as it is by that option. */
  function unionRenamer(all: Rename[]): Rename {
    const options = all.filter((option) => option !== asIs);
    if (options.length === 0) return asIs;
    return (value, place) => {
      for (const option of options) {
        const result = option(value, place);
        if (result !== value) return result;
      }
      return value;
    };
  }

  function build(schema: Schema): Rename {
    const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
    switch (def.type) {
      case 'object':
        return objectRenamer(schema as z.core.$ZodObject);
      case 'array':
        return arrayRenamer(renamerOf((schema as z.core.$ZodArray)._zod.def.element));
      case 'record':
        return recordRenamer(renamerOf((schema as z.core.$ZodRecord)._zod.def.valueType));
      case 'union':
        return unionRenamer((schema as z.core.$ZodUnion)._zod.def.options.map(renamerOf));
      case 'pipe':
        return renamerOf((schema as z.core.$ZodPipe)._zod.def.in);
      case 'lazy':
        return renamerOf((schema as z.core.$ZodLazy)._zod.def.getter());
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'nonoptional':
      case 'readonly':
      case 'catch':
        return renamerOf(def.innerType as Schema);
      default:
        return asIs;
    }
  }

  /** Compiled once per schema; a schema that contains itself (a Gemini Schema's `items`) reaches its own renamer. */
  function renamerOf(schema: Schema): Rename {
    const known = renamers.get(schema);
    if (known) return known;
    const compiled: { rename?: Rename } = {};
    // Deeper than a request may nest, the body is refused by its validation: nothing to rename there.
    const rename: Rename = (value, place) =>
      (place?.depth ?? 0) > maxRequestDepth ? value : compiled.rename!(value, place);
    renamers.set(schema, rename);
    compiled.rename = build(schema);
    // Nothing to rename inside (a leaf, user data): nothing to walk.
    if (compiled.rename === asIs) renamers.set(schema, asIs);
    return renamers.get(schema)!;
  }

  return renamerOf;
}

/**
 * A function that gives `body` every field `schema` declares under its JSON name, when the caller used its proto
 * field name; the body is returned as it is when nothing was renamed. Throws ApiError(400) for a field given twice.
 */
export function jsonFieldNames(schema: z.ZodType): (body: unknown) => unknown {
  const rename = compiler()(schema);
  return (body) => rename(body, null);
}
