// Shared by the registry tests: the published server.json documents of __fixtures__ (see its README), each checked
// against the registry's published schema with ajv before a test uses it, and a server.json for the real
// server-everything at the version installed here.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const fixtures = path.join(import.meta.dirname, '__fixtures__');
const root = path.resolve(import.meta.dirname, '../../..');

// draft-07, as the schema's $schema says; `format: uri` needs ajv-formats.
const ajv = new Ajv({ allErrors: true, strict: false });
(addFormatsModule as unknown as (ajv: Ajv) => void)(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(path.join(fixtures, 'server.schema.json'), 'utf8')) as object);

/** The published schema's verdict: undefined when valid, else its first error. */
export function schemaError(document: unknown): string | undefined {
  if (validate(document)) return undefined;
  const first = validate.errors?.[0];
  return `${first?.instancePath || '/'} ${first?.message ?? 'invalid'}`;
}

/** A fixture document, which must be valid (valid/…) or invalid (invalid/…) by the published schema. */
export function readFixture(name: string): Record<string, unknown> {
  const document = JSON.parse(readFileSync(path.join(fixtures, name), 'utf8')) as Record<string, unknown>;
  const error = schemaError(document);
  const expectValid = name.startsWith('valid/');
  if (expectValid && error) throw new Error(`${name} does not validate against the published schema: ${error}`);
  if (!expectValid && !error) throw new Error(`${name} validates against the published schema, but should not`);
  return document;
}

export const everythingVersion = (
  JSON.parse(
    readFileSync(path.join(root, 'node_modules/@modelcontextprotocol/server-everything/package.json'), 'utf8'),
  ) as { version: string }
).version;

/** server-everything as the registry would list it: npm, stdio, one optional environment variable. */
export function everythingServerJson(version = everythingVersion, serverVersion = version): Record<string, unknown> {
  const document = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: 'io.github.modelcontextprotocol/everything',
    description: 'MCP server that exercises all the features of the MCP protocol',
    version: serverVersion,
    repository: {
      url: 'https://github.com/modelcontextprotocol/servers',
      source: 'github',
      subfolder: 'src/everything',
    },
    packages: [
      {
        registryType: 'npm',
        identifier: '@modelcontextprotocol/server-everything',
        version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        environmentVariables: [{ name: 'EVERYTHING_NOTE', description: 'A note the server gets in its environment' }],
      },
    ],
  };
  const error = schemaError(document);
  if (error) throw new Error(`the everything server.json is not valid: ${error}`);
  return document;
}
