// OpenAI's published schemas of a chat completion and of a stream chunk (../shared/schemas/openai-chat-schemas.json,
// cut from OpenAI's OpenAPI document), compiled with Ajv: what "OpenAI's shape" means in a test, rather than a
// list of fields someone remembered. Formats are not checked (the document's `unixtime` is no JSON Schema format).
// The document is OpenAPI 3.1 with a few OpenAPI 3.0 `nullable: true` left in (the stream chunk's `usage`,
// `finish_reason`, `logprobs`): they are read as 3.0 defines them, the schema or null.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';

const schemasFile = fileURLToPath(new URL('../../../shared/schemas/openai-chat-schemas.json', import.meta.url));

type Root = 'CreateChatCompletionResponse' | 'CreateChatCompletionStreamResponse';

/** `{…, nullable: true}` as `{anyOf: [{…}, {type: 'null'}]}`, everywhere in `schema`. */
function withoutNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNullable);
  if (schema === null || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withoutNullable(value)]));
  return nullable === true ? { anyOf: [converted, { type: 'null' }] } : converted;
}

const { schemas } = withoutNullable(JSON.parse(readFileSync(schemasFile, 'utf8'))) as {
  schemas: Record<string, unknown>;
};
// The document's references point into an OpenAPI document (`#/components/schemas/…`): the schemas sit there.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: 'openai', components: { schemas } });

/** The ways `value` breaks OpenAI's schema `root`, as `<path> <message>` lines; empty when it conforms. */
export function openAISchemaErrors(root: Root, value: unknown): string[] {
  const validate = ajv.getSchema(`openai#/components/schemas/${root}`);
  if (!validate) throw new Error(`${schemasFile} has no schema ${root}`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
