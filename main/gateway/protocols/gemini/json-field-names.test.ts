import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/api/index.js';
import { jsonFieldNames, protoFieldName } from './json-field-names.js';

interface Node {
  [field: string]: unknown;
  childNodes?: Node[];
}
const node: z.ZodType<Node> = z.looseObject({
  nodeName: z.string().optional(),
  get childNodes() {
    return z.array(node).optional();
  },
});

const schema = z.looseObject({
  topLevel: z.number().optional(),
  nestedItems: z
    .array(z.looseObject({ itemName: z.string(), itemArgs: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
  userSchemas: z.record(z.string(), z.looseObject({ maxLength: z.number().optional() })).optional(),
  anyValue: z.unknown().optional(),
  eitherWay: z.union([z.string(), z.looseObject({ innerField: z.string() })]).optional(),
  lowered: z
    .string()
    .transform((text) => text.toLowerCase())
    .optional(),
  tree: node.optional(),
});
const rename = jsonFieldNames(schema);

describe('protoFieldName', () => {
  it('is the snake_case of a JSON name', () => {
    expect(protoFieldName('parametersJsonSchema')).toBe('parameters_json_schema');
    expect(protoFieldName('text')).toBe('text');
  });
});

describe('jsonFieldNames', () => {
  it('renames every field the schema declares, at every depth, through arrays, unions, pipes and getters', () => {
    expect(
      rename({
        top_level: 1,
        nested_items: [{ item_name: 'a' }, { itemName: 'b' }],
        either_way: { inner_field: 'x' },
        lowered: 'A',
        tree: { node_name: 'root', child_nodes: [{ child_nodes: [{ node_name: 'leaf' }] }] },
      }),
    ).toEqual({
      topLevel: 1,
      nestedItems: [{ itemName: 'a' }, { itemName: 'b' }],
      eitherWay: { innerField: 'x' },
      lowered: 'A',
      tree: { nodeName: 'root', childNodes: [{ childNodes: [{ nodeName: 'leaf' }] }] },
    });
  });

  it('keeps the keys of user data: records (whose values it walks), unknown values and undeclared fields', () => {
    const body = {
      nested_items: [{ item_name: 'a', item_args: { file_path: '/tmp/a', nested_arg: { deep_key: 1 } } }],
      user_schemas: { file_path: { max_length: 3 } },
      any_value: { some_key: { other_key: 1 } },
      undeclared_field: { its_key: 1 },
    };
    expect(rename(body)).toEqual({
      nestedItems: [{ itemName: 'a', itemArgs: { file_path: '/tmp/a', nested_arg: { deep_key: 1 } } }],
      userSchemas: { file_path: { maxLength: 3 } },
      anyValue: { some_key: { other_key: 1 } },
      undeclared_field: { its_key: 1 },
    });
  });

  it('gives back the very body when every field is already under its JSON name', () => {
    const body = { topLevel: 1, nestedItems: [{ itemName: 'a', itemArgs: { file_path: 'x' } }], eitherWay: 'x' };
    expect(rename(body)).toBe(body);
    expect(rename('not an object')).toBe('not an object');
    expect(rename({ nested_items: 'not an array' })).toEqual({ nestedItems: 'not an array' });
  });

  it('keeps a __proto__ key as an own field, as JSON.parse made it', () => {
    const renamed = rename(JSON.parse('{"top_level": 1, "__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(renamed)).toBe(Object.prototype);
    expect(Object.hasOwn(renamed, '__proto__')).toBe(true);
    expect(renamed.topLevel).toBe(1);
  });

  it('refuses a field given under both of its names with a 400 that names it', () => {
    const twice = { nested_items: [{ itemName: 'a', item_name: 'b' }] };
    const error = (() => {
      try {
        rename(twice);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe(
      'Invalid request: nestedItems[0].itemName is given twice, as "itemName" and as "item_name"; send one.',
    );
  });

  it('stops at the depth no request may reach, leaving the rest to the validation', () => {
    let deep: Node = { node_name: 'bottom' };
    for (let level = 0; level < 10_000; level += 1) deep = { child_nodes: [deep] };
    const renamed = rename({ tree: deep }) as { tree: Node };
    expect(renamed.tree.childNodes).toHaveLength(1);
  });
});
