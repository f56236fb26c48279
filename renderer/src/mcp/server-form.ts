// The server form's fields to and from a settings entry. Starting from the entry as written keeps the fields the
// form does not show (other apps' settings, autoApprove); problems come back per field from main. Env values and
// headers locked as secret leave as `secrets` (main stores them and writes their references); one already stored
// comes in as its reference and its masked value, and stays as it is until a new value is typed.

import type { McpSecretHint, McpSettingsProblem } from '../../../shared/bridge/types.js';
import { defaultSamplingApproval, samplingApprovals, type SamplingApproval } from '../../../shared/mcp/sampling.js';
import { isReferenceOnly, looksSecret, secretReferenceName } from '../../../shared/mcp/secret-fields.js';
import { fromPairs, toPairs, type Pair } from '../ui/key-value-editor.js';

export type RemoteTransport = 'auto' | 'streamableHttp' | 'sse';

export interface ServerForm {
  name: string;
  kind: 'stdio' | 'remote';
  command: string;
  /** One argument per line. */
  args: string;
  cwd: string;
  env: Pair[];
  url: string;
  transport: RemoteTransport;
  headers: Pair[];
  /** A client registered by hand for the server's OAuth sign-in (`oauth.clientId`). */
  clientId: string;
  /** Typed to set or replace the secret (it goes to the keychain, never into the entry); empty keeps the one set. */
  clientSecret: string;
  /** As typed: a number of seconds, or empty for the default. */
  timeout: string;
  startupTimeout: string;
  /** The model that answers the server's sampling requests; empty: none, so they are refused. */
  samplingModel: string;
  samplingApproval: SamplingApproval;
}

export const formFields = [
  'name',
  'command',
  'args',
  'cwd',
  'env',
  'url',
  'type',
  'headers',
  'oauth',
  'timeout',
  'startupTimeout',
  'sampling',
] as const;
export type FormField = (typeof formFields)[number];

const text = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);

/** Whether a pair's value goes to the secret store: as its lock was set, else when it is stored or looks secret. */
export function isSecretPair(pair: Pair): boolean {
  return pair.secret ?? (pair.stored !== undefined || (looksSecret(pair.name) && !isReferenceOnly(pair.value)));
}

/** The pairs of an env or headers object; `${secret:NAME}` values become stored secrets, shown by `hints`. */
function toSecretPairs(record: unknown, hints: McpSecretHint[]): Pair[] {
  return toPairs(record).map((pair) => {
    const name = secretReferenceName(pair.value);
    if (name === undefined) return pair;
    const masked = hints.find((hint) => hint.name === name)?.masked ?? null;
    return { ...pair, value: '', secret: true, stored: { name, masked } };
  });
}

/** What the file gets for the pairs: a typed secret is left empty (main writes its reference), a kept one its reference. */
function toRecord(pairs: Pair[]): Record<string, string> {
  return fromPairs(
    pairs.map((pair) => {
      if (!isSecretPair(pair) || isReferenceOnly(pair.value)) return pair;
      const kept = pair.value === '' && pair.stored ? `\${secret:${pair.stored.name}}` : '';
      return { ...pair, value: kept };
    }),
  );
}

/** The values typed into locked fields, for main to store: env for a local server, headers for a remote one. */
export function secretValuesOf(form: ServerForm): { env?: Record<string, string>; headers?: Record<string, string> } {
  const pairs = form.kind === 'stdio' ? form.env : form.headers;
  const typed = pairs.filter((pair) => isSecretPair(pair) && pair.value !== '' && !isReferenceOnly(pair.value));
  if (typed.length === 0) return {};
  return { [form.kind === 'stdio' ? 'env' : 'headers']: fromPairs(typed) };
}

export function toForm(name: string, entry: Record<string, unknown> | null, hints: McpSecretHint[] = []): ServerForm {
  const written = entry ?? {};
  const type = written.type;
  const remote =
    type === 'streamableHttp' || type === 'sse' || type === 'http' || (!written.command && written.url !== undefined);
  return {
    name,
    kind: remote ? 'remote' : 'stdio',
    command: text(written.command),
    args: Array.isArray(written.args) ? written.args.map(text).join('\n') : '',
    cwd: text(written.cwd),
    env: toSecretPairs(written.env, hints),
    url: text(written.url),
    transport: type === 'sse' ? 'sse' : type === 'streamableHttp' || type === 'http' ? 'streamableHttp' : 'auto',
    headers: toSecretPairs(written.headers, hints),
    clientId: text(isRecord(written.oauth) ? written.oauth.clientId : undefined),
    clientSecret: '',
    timeout: text(written.timeout),
    startupTimeout: text(written.startupTimeout),
    ...samplingForm(written.sampling),
  };
}

function samplingForm(written: unknown): Pick<ServerForm, 'samplingModel' | 'samplingApproval'> {
  const sampling = typeof written === 'object' && written !== null ? (written as Record<string, unknown>) : {};
  const approval = samplingApprovals.find((known) => known === sampling.approval) ?? defaultSamplingApproval;
  return { samplingModel: text(sampling.model), samplingApproval: approval };
}

/** Seconds as typed: a number when it is one, else the text itself, so main can say what is wrong with it. */
function seconds(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export function toEntry(form: ServerForm, original: Record<string, unknown> | null): Record<string, unknown> {
  const entry: Record<string, unknown> = { ...(original ?? {}) };
  const fields = ['type', 'command', 'args', 'cwd', 'env', 'url', 'headers', 'timeout', 'startupTimeout', 'sampling'];
  for (const field of fields) {
    delete entry[field];
  }
  if (form.kind === 'stdio') {
    if (original?.type === 'stdio') entry.type = 'stdio';
    entry.command = form.command.trim();
    const args = form.args.split('\n').filter((line) => line.trim() !== '');
    if (args.length > 0) entry.args = args;
    if (form.cwd.trim() !== '') entry.cwd = form.cwd.trim();
    const env = toRecord(form.env);
    if (Object.keys(env).length > 0) entry.env = env;
  } else {
    if (form.transport !== 'auto') entry.type = form.transport;
    entry.url = form.url.trim();
    const headers = toRecord(form.headers);
    if (Object.keys(headers).length > 0) entry.headers = headers;
    const { clientId: _clientId, ...oauth } = isRecord(original?.oauth) ? original.oauth : {};
    if (form.clientId.trim() !== '') oauth.clientId = form.clientId.trim();
    if (Object.keys(oauth).length > 0) entry.oauth = oauth;
    else delete entry.oauth;
  }
  const timeout = seconds(form.timeout);
  if (timeout !== undefined) entry.timeout = timeout;
  const startupTimeout = seconds(form.startupTimeout);
  if (startupTimeout !== undefined) entry.startupTimeout = startupTimeout;
  const samplingModel = form.samplingModel.trim();
  if (samplingModel !== '' || form.samplingApproval !== defaultSamplingApproval) {
    entry.sampling = { ...(samplingModel ? { model: samplingModel } : {}), approval: form.samplingApproval };
  }
  return entry;
}

/**
 * What to do with the keychain's client secret on save: the typed one; null (delete) once the form names no
 * client; undefined (keep) otherwise.
 */
export function clientSecretChange(form: ServerForm, secretSet: boolean): string | null | undefined {
  if (form.kind !== 'remote' || form.clientId.trim() === '') return secretSet ? null : undefined;
  return form.clientSecret === '' ? undefined : form.clientSecret;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Problems by the form field they are about (`mcpServers.fs.timeout` → timeout); the rest under `general`. */
export function problemsByField(problems: McpSettingsProblem[]): Partial<Record<FormField | 'general', string>> {
  const byField: Partial<Record<FormField | 'general', string>> = {};
  for (const problem of problems) {
    const field = /^mcpServers\.[^.[]*[.[]([A-Za-z]+)/.exec(problem.path)?.[1];
    const key = formFields.includes(field as FormField) ? (field as FormField) : 'general';
    const message = key === 'general' ? `${problem.path}: ${problem.message}` : problem.message;
    byField[key] = byField[key] ? `${byField[key]}; ${message}` : message;
  }
  return byField;
}
