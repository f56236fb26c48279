// The server form's fields to and from a settings entry. Starting from the entry as written keeps the fields the
// form does not show (other apps' settings, autoApprove); problems come back per field from main.

import type { McpSettingsProblem } from '../../../shared/bridge/types.js';
import { defaultSamplingApproval, samplingApprovals, type SamplingApproval } from '../../../shared/mcp/sampling.js';
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
  'timeout',
  'startupTimeout',
  'sampling',
] as const;
export type FormField = (typeof formFields)[number];

const text = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);

export function toForm(name: string, entry: Record<string, unknown> | null): ServerForm {
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
    env: toPairs(written.env),
    url: text(written.url),
    transport: type === 'sse' ? 'sse' : type === 'streamableHttp' || type === 'http' ? 'streamableHttp' : 'auto',
    headers: toPairs(written.headers),
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
    const env = fromPairs(form.env);
    if (Object.keys(env).length > 0) entry.env = env;
  } else {
    if (form.transport !== 'auto') entry.type = form.transport;
    entry.url = form.url.trim();
    const headers = fromPairs(form.headers);
    if (Object.keys(headers).length > 0) entry.headers = headers;
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
