// The MCP Registry's documents as we read them: `server.json` (what a server is and how to install it) inside the
// API's `{server, _meta}` responses and `{servers, metadata}` lists. Lenient in: every object keeps fields we do not
// know (registries add them), and only what installing needs is checked. A document that fails says which server
// and which field, so a list can skip it and say why instead of failing the whole page.

import { z } from 'zod';
import { describeValue } from '../describe-value.js';

const text = z.string({ error: (issue) => `expected a string, got ${describeValue(issue.input)}` });
const flag = z.boolean({ error: (issue) => `expected true or false, got ${describeValue(issue.input)}` });
const list = <Item extends z.ZodType>(item: Item) =>
  z.array(item, { error: (issue) => `expected an array, got ${describeValue(issue.input)}` });
const object = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.looseObject(shape, { error: (issue) => `expected an object, got ${describeValue(issue.input)}` });

const inputShape = {
  description: text.nullish(),
  isRequired: flag.nullish(),
  format: text.nullish(),
  value: text.nullish(),
  isSecret: flag.nullish(),
  default: text.nullish(),
  placeholder: text.nullish(),
  choices: list(text).nullish(),
};
const input = object(inputShape);
const variables = z
  .record(z.string(), input, { error: (issue) => `expected an object of inputs, got ${describeValue(issue.input)}` })
  .nullish();
const keyValueInput = object({ ...inputShape, variables, name: text.min(1, { error: 'must not be empty' }) });
const argument = object({
  ...inputShape,
  variables,
  type: z.enum(['positional', 'named'], {
    error: (issue) => `expected "positional" or "named", got ${describeValue(issue.input)}`,
  }),
  name: text.nullish(),
  valueHint: text.nullish(),
  isRepeated: flag.nullish(),
});
const transport = object({ type: text, url: text.nullish(), headers: list(keyValueInput).nullish() });
const remote = object({
  type: text,
  url: text.min(1, { error: 'must not be empty' }),
  headers: list(keyValueInput).nullish(),
  variables,
});
const registryPackage = object({
  registryType: text,
  registryBaseUrl: text.nullish(),
  identifier: text.min(1, { error: 'must not be empty' }),
  version: text.nullish(),
  runtimeHint: text.nullish(),
  transport: transport.nullish(),
  runtimeArguments: list(argument).nullish(),
  packageArguments: list(argument).nullish(),
  environmentVariables: list(keyValueInput).nullish(),
  fileSha256: text.nullish(),
});
const serverJsonSchema = object({
  name: text.min(1, { error: 'must not be empty' }),
  description: text.nullish(),
  title: text.nullish(),
  version: text.min(1, { error: 'must not be empty' }),
  websiteUrl: text.nullish(),
  packages: list(registryPackage).nullish(),
  remotes: list(remote).nullish(),
});
const officialMetaKey = 'io.modelcontextprotocol.registry/official';
const serverResponseSchema = object({
  server: z.unknown(),
  _meta: z.record(z.string(), z.unknown()).nullish(),
});
const serverListSchema = object({
  servers: list(z.unknown()),
  metadata: object({ nextCursor: text.nullish(), count: z.number().nullish() }).nullish(),
});
const officialMetaSchema = z.looseObject({
  status: z.string().nullish(),
  isLatest: z.boolean().nullish(),
  publishedAt: z.string().nullish(),
});

export type RegistryInput = z.infer<typeof input>;
export type RegistryKeyValueInput = z.infer<typeof keyValueInput>;
export type RegistryArgument = z.infer<typeof argument>;
export type RegistryPackage = z.infer<typeof registryPackage>;
export type RegistryRemote = z.infer<typeof remote>;
export type ServerJson = z.infer<typeof serverJsonSchema>;

/** One server of a registry answer: its server.json and what the registry says of that version. */
export interface RegistryServer {
  server: ServerJson;
  status?: string;
  isLatest?: boolean;
  publishedAt?: string;
}

/** A document the registry sent that cannot be used, with the server (when known) and the field. */
export class RegistryDocumentError extends Error {
  override readonly name = 'RegistryDocumentError';
  constructor(
    message: string,
    readonly serverName: string | undefined,
    readonly field: string,
  ) {
    super(message);
  }
}

/** A server.json, checked; throws RegistryDocumentError naming the server and the field. */
export function parseServerJson(value: unknown): ServerJson {
  const parsed = serverJsonSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const serverName = nameOf(value);
  const issue = parsed.error.issues[0]!;
  const field = formatPath(issue.path);
  const who = serverName === undefined ? 'A server in the registry' : `Registry server "${serverName}"`;
  throw new RegistryDocumentError(`${who}: ${field || 'server.json'}: ${issue.message}`, serverName, field);
}

/** One `{server, _meta}` answer (GET /v0/servers/{name}/versions/{version}). */
export function parseServerResponse(value: unknown): RegistryServer {
  const parsed = serverResponseSchema.safeParse(value);
  if (!parsed.success) {
    throw new RegistryDocumentError(
      `The registry's answer is not a server response: ${parsed.error.issues[0]!.message}`,
      undefined,
      formatPath(parsed.error.issues[0]!.path),
    );
  }
  const server = parseServerJson(parsed.data.server);
  const official = officialMetaSchema.safeParse(parsed.data._meta?.[officialMetaKey]);
  const meta = official.success ? official.data : {};
  return {
    server,
    ...(meta.status ? { status: meta.status } : {}),
    ...(typeof meta.isLatest === 'boolean' ? { isLatest: meta.isLatest } : {}),
    ...(meta.publishedAt ? { publishedAt: meta.publishedAt } : {}),
  };
}

export interface RegistryPage {
  servers: RegistryServer[];
  /** Servers left out of `servers` because their document is malformed, each message naming server and field. */
  skipped: string[];
  nextCursor?: string;
}

/** A `{servers, metadata}` list: a malformed entry is skipped (and said), never the whole page. */
export function parseServerList(value: unknown): RegistryPage {
  const parsed = serverListSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RegistryDocumentError(
      `The registry's answer is not a server list: ${formatPath(issue.path) || 'the answer'}: ${issue.message}`,
      undefined,
      formatPath(issue.path),
    );
  }
  const servers: RegistryServer[] = [];
  const skipped: string[] = [];
  for (const entry of parsed.data.servers) {
    try {
      servers.push(parseServerResponse(entry));
    } catch (error) {
      if (!(error instanceof RegistryDocumentError)) throw error;
      skipped.push(error.message);
    }
  }
  const nextCursor = parsed.data.metadata?.nextCursor;
  return { servers, skipped, ...(nextCursor ? { nextCursor } : {}) };
}

function nameOf(value: unknown): string | undefined {
  const name = (value as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`))
    .join('');
}
