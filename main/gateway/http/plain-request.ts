// Request bodies parsed without zod's walk, by a parser derived from the same schema. zod runs every field of a
// schema for every request, the forty-odd a chat request leaves out included, and wraps each step in its own
// bookkeeping: about 5 % of the gateway's CPU per request went there. The parser here follows zod's rules for the
// containers (objects with their key order and optional keys, arrays, records, unions, optional, nullable, default,
// pipe) and leaves the rest to zod itself: every check and refinement (limits, patterns, superRefine) and every
// transform is zod's own function, called on the value zod would call it on. Whatever it does not model — a kind of
// schema not listed here, an object that is not a plain object, a `__proto__` key — it answers `notPlain`, and the
// caller parses with zod as before, so errors keep their wording. It finds an object's fields by its enumerable keys,
// as JSON.parse and object literals make them (zod would also find a non-enumerable one, which no body has). The
// bound on nesting (json-depth.ts) is kept as it walks: a body it accepts has nothing deeper than `maxDepth`.

import { z } from 'zod';
import { pathBeyondDepth } from './json-depth.js';

/** What a parser answers for a value it cannot vouch for: zod decides. */
export const notPlain: unique symbol = Symbol('not plain');
/** What a parser answers for a value zod refuses for certain; a union then tries its next option, as zod does. */
const refused: unique symbol = Symbol('refused');

type Verdict = typeof notPlain | typeof refused;
type Schema = z.core.$ZodType;
type Check = z.core.$ZodCheck<never>;
/** The output zod would give `value` (the value at `depth` in the body), or a verdict. */
type Parse = (value: unknown, depth: number) => unknown;

const context = { async: false } as const;
const isVerdict = (value: unknown): value is Verdict => value === notPlain || value === refused;
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/** Sorts a few numbers in place (insertion sort: no comparator calls). */
function sortSmall(numbers: number[]): void {
  for (let end = 1; end < numbers.length; end += 1) {
    const number = numbers[end]!;
    let at = end;
    for (; at > 0 && numbers[at - 1]! > number; at -= 1) numbers[at] = numbers[at - 1]!;
    numbers[at] = number;
  }
}

/** zod's run of its checks after a parse: each `when` honoured, a check that adds an issue fails the value. */
function withChecks(checks: readonly Check[], parse: Parse): Parse {
  if (checks.length === 0) return parse;
  return (value, depth) => {
    const parsed = parse(value, depth);
    if (isVerdict(parsed)) return parsed;
    const payload: z.core.ParsePayload = { value: parsed, issues: [] };
    for (const check of checks) {
      const { when } = check._zod.def;
      if (when && !when(payload)) continue;
      if (check._zod.check(payload as z.core.ParsePayload<never>) instanceof Promise) return notPlain;
      if (payload.issues.length > 0) return refused;
    }
    return payload.value;
  };
}

function compiler(maxDepth: number) {
  const parsers = new Map<Schema, Parse>();

  /** A value nothing walks (z.unknown(), or a leaf zod is asked about) must still be within the bound. */
  const withinDepth = (value: unknown, depth: number) =>
    value === null || typeof value !== 'object' || pathBeyondDepth(value, maxDepth - depth) === null;

  /** zod's own parse of a leaf: no schemas inside, so nothing of zod's walk to save. */
  function zodRun(schema: Schema): Parse {
    return (value) => {
      const result = schema._zod.run({ value, issues: [] }, context);
      if (result instanceof Promise) return notPlain;
      return result.issues.length > 0 ? refused : result.value;
    };
  }

  function zodLeaf(schema: Schema): Parse {
    const run = zodRun(schema);
    return (value, depth) => (withinDepth(value, depth) ? run(value, depth) : notPlain);
  }

  /** The leaves most requests are made of, checked inline when zod would only test their type. */
  function simpleLeaf(schema: Schema): Parse | undefined {
    const internals = schema._zod;
    const def = internals.def as z.core.$ZodTypeDef & { coerce?: boolean };
    if (def.checks?.length || def.coerce || internals.traits.has('$ZodCheck')) return undefined;
    switch (def.type) {
      case 'string':
        return (value) => (typeof value === 'string' ? value : refused);
      case 'boolean':
        return (value) => (typeof value === 'boolean' ? value : refused);
      case 'number':
        return (value) => (typeof value === 'number' && Number.isFinite(value) ? value : refused);
      case 'enum':
      case 'literal': {
        const values = internals.values!;
        return (value) => (values.has(value as never) ? value : refused);
      }
      default:
        return undefined;
    }
  }

  /**
   * zod's object: the shape's keys in order (an absent key per its optionality), then the other keys in the order
   * they came, through the catchall (looseObject: as given) or dropped (z.object).
   */
  function objectParser(schema: z.core.$ZodObject): Parse {
    const { shape, catchall } = schema._zod.def;
    if (Object.getOwnPropertySymbols(shape).length > 0) return () => notPlain;
    const keys = Object.keys(shape);
    // A key Object.prototype has would be found on every body; zod's `in` and ours agree, but nothing needs it.
    if (keys.some((key) => key in Object.prototype)) return () => notPlain;
    const fields = keys.map((key) => {
      const { optin, optout } = shape[key]!._zod;
      return {
        key,
        parse: parserOf(shape[key]!),
        /** Absent, it contributes nothing and is not even parsed. */
        omittable: optin === 'optional' && optout === 'optional',
        required: optin === undefined,
        /** Absent, a failure of its parse is ignored. */
        forgiven: optin !== undefined && optout === 'optional',
        /** Absent, an undefined result is still set. */
        keepsUndefined: optin === 'defaulted' && optout !== 'optional',
      };
    });
    const places = new Map(keys.map((key, place) => [key, place]));
    const parsedWhenAbsent = fields.flatMap((field, place) => (field.omittable ? [] : [place]));
    const rest = catchall ? parserOf(catchall) : undefined;
    return (input, depth) => {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) return refused;
      if (!isPlainObject(input) || depth > maxDepth) return notPlain;
      // The fields to parse, each as 2 × its place in the shape, + 1 when absent: in order, they are zod's order.
      // Found from the object's own keys, since asking the object for each of the shape's keys costs a failed
      // lookup per absent field, dozens per request.
      const steps: number[] = [];
      let others: string[] | undefined;
      for (const key in input) {
        const place = places.get(key);
        if (place !== undefined) steps.push(2 * place);
        // zod leaves it out, but the depth check would look into it: zod decides.
        else if (key === '__proto__') return notPlain;
        else (others ??= []).push(key);
      }
      for (const place of parsedWhenAbsent) if (!steps.includes(2 * place)) steps.push(2 * place + 1);
      sortSmall(steps);
      const output: Record<string, unknown> = {};
      for (const step of steps) {
        const field = fields[step >> 1]!;
        const present = (step & 1) === 0;
        const value = field.parse(input[field.key], depth + 1);
        if (isVerdict(value)) {
          if (value === refused && !present && field.forgiven) continue;
          return value;
        }
        if (!present && field.required) return refused;
        if (value !== undefined || present || field.keepsUndefined) output[field.key] = value;
      }
      for (const key of others ?? []) {
        if (!rest) {
          if (!withinDepth(input[key], depth + 1)) return notPlain;
          continue;
        }
        const value = rest(input[key], depth + 1);
        if (isVerdict(value)) return value;
        output[key] = value;
      }
      return output;
    };
  }

  function arrayParser(schema: z.core.$ZodArray): Parse {
    const element = parserOf(schema._zod.def.element);
    return (input, depth) => {
      if (!Array.isArray(input)) return refused;
      if (depth > maxDepth) return notPlain;
      const output: unknown[] = new Array(input.length);
      for (let index = 0; index < input.length; index += 1) {
        const value = element(input[index], depth + 1);
        if (isVerdict(value)) return value;
        output[index] = value;
      }
      return output;
    };
  }

  /** A record whose keys are checked, not listed (z.record(z.string(), …)); a key it refuses is zod's to judge. */
  function recordParser(schema: z.core.$ZodRecord): Parse {
    const { keyType, valueType } = schema._zod.def;
    if (keyType._zod.values) return () => notPlain;
    const key = parserOf(keyType);
    const value = parserOf(valueType);
    return (input, depth) => {
      if (!z.core.util.isPlainObject(input)) return refused;
      if (!isPlainObject(input) || depth > maxDepth) return notPlain;
      const output: Record<string, unknown> = {};
      for (const name of Reflect.ownKeys(input)) {
        if (typeof name !== 'string') return notPlain;
        if (!Object.prototype.propertyIsEnumerable.call(input, name)) continue;
        const outputName = key(name, depth + 1);
        // `__proto__`: zod leaves it out, but the depth check would look into it.
        if (typeof outputName !== 'string' || outputName === '__proto__') return notPlain;
        const parsed = value(input[name], depth + 1);
        if (isVerdict(parsed)) return parsed;
        output[outputName] = parsed;
      }
      return output;
    };
  }

  /** The first option that takes the value; an option we cannot vouch for ends the search. */
  function unionParser(schema: z.core.$ZodUnion): Parse {
    const options = schema._zod.def.options.map(parserOf);
    return (input, depth) => {
      for (const option of options) {
        const value = option(input, depth);
        if (value !== refused) return value;
      }
      return refused;
    };
  }

  /** The option the discriminator names (zod's lookup: one option per value); none, and zod refuses. */
  function discriminatedParser(schema: z.core.$ZodDiscriminatedUnion): Parse {
    const { discriminator, options, unionFallback } = schema._zod.def;
    if (unionFallback) return () => notPlain;
    const byValue = new Map<unknown, Parse | null>();
    for (const option of options) {
      for (const value of option._zod.propValues?.[discriminator] ?? []) {
        byValue.set(value, byValue.has(value) ? null : parserOf(option));
      }
    }
    return (input, depth) => {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) return refused;
      const option = byValue.get((input as Record<string, unknown>)[discriminator]);
      return option ? option(input, depth) : refused;
    };
  }

  function optionalParser(schema: z.core.$ZodOptional): Parse {
    const inner = schema._zod.def.innerType;
    const parse = parserOf(inner);
    if (inner._zod.optin !== 'defaulted')
      return (value, depth) => (value === undefined ? undefined : parse(value, depth));
    return (value, depth) => {
      if (value !== undefined) return parse(value, depth);
      const substituted = parse(value, depth);
      return substituted === refused ? undefined : substituted;
    };
  }

  function nullableParser(schema: z.core.$ZodNullable): Parse {
    const parse = parserOf(schema._zod.def.innerType);
    return (value, depth) => (value === null ? null : parse(value, depth));
  }

  function defaultParser(schema: z.core.$ZodDefault): Parse {
    const def = schema._zod.def;
    const parse = parserOf(def.innerType);
    return (value, depth) => {
      if (value === undefined) return def.defaultValue;
      const parsed = parse(value, depth);
      return parsed === undefined ? def.defaultValue : parsed;
    };
  }

  /** A transform after the pipe's input schema gets what that schema made of a value it has walked whole. */
  function pipeParser(schema: z.core.$ZodPipe): Parse {
    const { in: first, out: then } = schema._zod.def;
    const into = parserOf(first);
    const out = then._zod.def.type === 'transform' ? zodRun(then) : parserOf(then);
    return (value, depth) => {
      const parsed = into(value, depth);
      return isVerdict(parsed) ? parsed : out(parsed, depth);
    };
  }

  function containerParser(schema: Schema): Parse | undefined {
    const { traits, def } = schema._zod;
    const is = (trait: string) => traits.has(trait);
    switch (def.type) {
      case 'object':
        return objectParser(schema as z.core.$ZodObject);
      case 'array':
        return arrayParser(schema as z.core.$ZodArray);
      case 'record':
        return recordParser(schema as z.core.$ZodRecord);
      case 'union':
        if (is('$ZodDiscriminatedUnion')) return discriminatedParser(schema as z.core.$ZodDiscriminatedUnion);
        return is('$ZodXor') ? undefined : unionParser(schema as z.core.$ZodUnion);
      case 'optional':
        return is('$ZodExactOptional') ? undefined : optionalParser(schema as z.core.$ZodOptional);
      case 'nullable':
        return nullableParser(schema as z.core.$ZodNullable);
      case 'default':
        return is('$ZodDefault') ? defaultParser(schema as z.core.$ZodDefault) : undefined;
      case 'pipe':
        return is('$ZodCodec') ? undefined : pipeParser(schema as z.core.$ZodPipe);
      default:
        return undefined;
    }
  }

  /** Leaves zod parses without looking inside anything: its own run is exact and cheap. */
  const zodLeaves = new Set(['string', 'number', 'boolean', 'enum', 'literal', 'null', 'undefined', 'transform']);

  function parserOf(schema: Schema): Parse {
    const known = parsers.get(schema);
    if (known) return known;
    // A schema that reaches itself again (z.lazy, a getter in a shape) is zod's alone.
    parsers.set(schema, () => notPlain);
    const { def, traits } = schema._zod;
    let parse: Parse;
    if (def.type === 'unknown' || def.type === 'any') {
      parse = withChecks(def.checks ?? [], (value, depth) => (withinDepth(value, depth) ? value : notPlain));
    } else if (zodLeaves.has(def.type)) {
      parse = simpleLeaf(schema) ?? zodLeaf(schema);
    } else {
      const container = containerParser(schema);
      const checks = [...(traits.has('$ZodCheck') ? [schema as unknown as Check] : []), ...(def.checks ?? [])];
      parse = container ? withChecks(checks, container) : () => notPlain;
    }
    parsers.set(schema, parse);
    return parse;
  }

  return parserOf;
}

/**
 * A parser of `schema`'s input: zod's output for the values it can vouch for, `notPlain` for the others, which zod
 * must parse. A value it accepts nests no deeper than `maxDepth` (the value itself is depth 0).
 */
export function plainParser<S extends z.ZodType>(
  schema: S,
  maxDepth: number,
): (input: unknown) => z.output<S> | typeof notPlain {
  const parse = compiler(maxDepth)(schema);
  return (input) => {
    const parsed = parse(input, 0);
    return parsed === refused ? notPlain : (parsed as z.output<S> | typeof notPlain);
  };
}
