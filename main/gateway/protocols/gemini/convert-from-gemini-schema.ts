// A Gemini Schema (the OpenAPI 3.0 subset of `functionDeclarations[].parameters` and `responseSchema`) → JSON
// Schema, which every other provider kind takes: type names in lower case (Gemini's own clients send `OBJECT`,
// `STRING`), `nullable: true` as a `null` type, `TYPE_UNSPECIFIED` as no type. Everything else already means the same
// in both. The reverse of main/providers/google/convert-to-gemini-schema.ts.

type Schema = Record<string, unknown>;

/** Deeper than this is a broken or hostile schema: what lies below is kept as it came. */
const maxDepth = 32;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function convert(schema: Schema, depth: number): Schema {
  if (depth > maxDepth) return schema;
  const next = (value: unknown) => (isSchema(value) ? convert(value, depth + 1) : value);
  const converted: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    switch (keyword) {
      case 'nullable':
        break;
      case 'type':
        if (typeof value === 'string' && value.toUpperCase() !== 'TYPE_UNSPECIFIED') {
          converted.type = value.toLowerCase();
        }
        break;
      case 'properties':
        converted.properties = isSchema(value)
          ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, next(property)]))
          : value;
        break;
      case 'items':
        converted.items = next(value);
        break;
      case 'anyOf':
        converted.anyOf = Array.isArray(value) ? value.map(next) : value;
        break;
      default:
        converted[keyword] = value;
    }
  }
  if (schema.nullable === true) {
    if (typeof converted.type === 'string') converted.type = [converted.type, 'null'];
    else if (Array.isArray(converted.anyOf)) converted.anyOf = [...converted.anyOf, { type: 'null' }];
  }
  return converted;
}

export function convertFromGeminiSchema(schema: Schema): Schema {
  return convert(schema, 0);
}
