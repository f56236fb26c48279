// The `mcpServers` settings of spec 2.10, plus the fields peer apps added (cwd; remote servers with type, url,
// headers). Each entry is checked on its own, so one bad entry never stops the others: problems are collected
// with the exact path of the bad field, and the entry is left out. Values are validated as written; `${env:VAR}`
// is expanded only when a server starts (see expand-env.ts), so the file keeps the references.

import { z } from 'zod';
import { defaultSamplingApproval, samplingApprovals, type SamplingSettings } from '../../shared/mcp/sampling.js';
import { describeValue } from './describe-value.js';
import type { ServerTransportKind, SettingsProblem } from './types.js';

export const defaultToolTimeoutSeconds = 60;
export const defaultStartupTimeoutSeconds = 30;
export const minTimeoutSeconds = 1;
export const maxTimeoutSeconds = 3600;

interface CommonServerConfig {
  name: string;
  disabled: boolean;
  /** MCP tool names (not the catalog's function names) that run without asking the user. */
  autoApprove: string[];
  /**
   * MCP tool names switched off: neither the chat's model nor the hub's clients see them (as LM Studio's and
   * Cline's per-tool toggles). Not in every app's shape: others ignore the field.
   */
  disabledTools: string[];
  /** Tool-call (and other request) timeout, clamped to 1–3600. */
  timeoutSeconds: number;
  /** How long start-up and the handshake may take; unset means the manager's default. */
  startupTimeoutSeconds?: number;
  /** How Switchyard answers the server's sampling requests (an extension of the settings shape; decision 035). */
  sampling?: SamplingSettings;
}

export interface StdioServerConfig extends CommonServerConfig {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface RemoteServerConfig extends CommonServerConfig {
  transport: Exclude<ServerTransportKind, 'stdio'>;
  url: string;
  headers: Record<string, string>;
  /** No `type` was given (Cursor's style): try streamable HTTP, then fall back to the older SSE transport. */
  sseFallback: boolean;
  /** How to sign in when the server asks for OAuth (an extension of the settings shape; see oauth/). */
  oauth?: { clientMetadataUrl?: string; clientId?: string };
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

export interface ParsedEntry {
  name: string;
  /** Unset when the entry has an `error` problem. */
  config?: ServerConfig;
  problems: SettingsProblem[];
}

export interface ParsedSettings {
  /** In file order, valid and invalid alike (the UI shows invalid entries with their problems). */
  entries: ParsedEntry[];
  /** File-level problems and every entry's problems. */
  problems: SettingsProblem[];
}

const typeNames = ['stdio', 'streamableHttp', 'sse', 'http'] as const;

const stringValue = z.string({ error: (issue) => `expected a string, got ${describeValue(issue.input)}` });
const stringArray = z.array(stringValue, {
  error: (issue) => `expected an array of strings, got ${describeValue(issue.input)}`,
});
const stringMap = z.record(z.string(), stringValue, {
  error: (issue) => `expected an object of string values, got ${describeValue(issue.input)}`,
});
const seconds = z
  .number({ error: (issue) => `expected a number of seconds, got ${describeValue(issue.input)}` })
  .refine(Number.isFinite, { error: 'expected a finite number of seconds' });

const httpsUrlWithPath = 'expected the https URL of a client ID metadata document (with a path)';

/**
 * The MCP SDK's rule for a client ID metadata document (isHttpsUrl in its client/auth.js: https, a path other than
 * `/`), which its sign-in enforces. Written out here because every process that reads the settings parses them,
 * and importing the SDK's auth module for this would load the whole SDK into a gateway with no MCP servers.
 */
function isHttpsUrlWithPath(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.pathname !== '/';
}

// Unknown fields are allowed (and kept in the file): other apps put their own there.
const entrySchema = z.object(
  {
    type: z
      .enum(typeNames, {
        error: (issue) => `expected one of stdio, streamableHttp, sse; got ${describeValue(issue.input)}`,
      })
      .nullish(),
    command: stringValue.min(1, { error: 'must not be empty' }).nullish(),
    args: stringArray.nullish(),
    env: stringMap.nullish(),
    cwd: stringValue.min(1, { error: 'must not be empty' }).nullish(),
    url: stringValue.nullish(),
    headers: stringMap.nullish(),
    oauth: z
      .object(
        {
          clientMetadataUrl: stringValue.refine(isHttpsUrlWithPath, { error: httpsUrlWithPath }).nullish(),
          // A client registered by hand with the authorization server; its secret is in the secret store.
          clientId: stringValue.min(1, { error: 'must not be empty' }).nullish(),
        },
        { error: (issue) => `expected an object, got ${describeValue(issue.input)}` },
      )
      .nullish(),
    disabled: z.boolean({ error: (issue) => `expected true or false, got ${describeValue(issue.input)}` }).nullish(),
    autoApprove: stringArray.nullish(),
    disabledTools: stringArray.nullish(),
    timeout: seconds.nullish(),
    startupTimeout: seconds.nullish(),
    sampling: z
      .object(
        {
          model: stringValue.min(1, { error: 'must not be empty' }).nullish(),
          approval: z
            .enum(samplingApprovals, {
              error: (issue) => `expected one of ${samplingApprovals.join(', ')}; got ${describeValue(issue.input)}`,
            })
            .nullish(),
        },
        { error: (issue) => `expected an object, got ${describeValue(issue.input)}` },
      )
      .nullish(),
  },
  { error: (issue) => `expected an object describing the server, got ${describeValue(issue.input)}` },
);

type RawEntry = z.infer<typeof entrySchema>;

export function parseSettings(raw: unknown): ParsedSettings {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { entries: [], problems: [fileProblem('', `expected a JSON object, got ${describeValue(raw)}`)] };
  }
  const servers = (raw as Record<string, unknown>).mcpServers;
  if (servers === undefined || servers === null) return { entries: [], problems: [] };
  if (typeof servers !== 'object' || Array.isArray(servers)) {
    return {
      entries: [],
      problems: [
        fileProblem('mcpServers', `expected an object mapping server names to entries, got ${describeValue(servers)}`),
      ],
    };
  }
  const entries = Object.entries(servers as Record<string, unknown>).map(([name, value]) => parseEntry(name, value));
  return { entries, problems: entries.flatMap((entry) => entry.problems) };
}

export function parseEntry(name: string, value: unknown): ParsedEntry {
  const problems: SettingsProblem[] = [];
  const error = (field: string, message: string) => problems.push(entryProblem(name, field, message, 'error'));
  const warning = (field: string, message: string) => problems.push(entryProblem(name, field, message, 'warning'));

  if (name.trim() === '') error('', 'a server name must not be empty');
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) error(formatPath(issue.path), issue.message);
    return { name, problems };
  }
  const entry = parsed.data;
  const timeoutSeconds = clampSeconds(entry.timeout ?? defaultToolTimeoutSeconds, 'timeout', warning);
  const startupTimeoutSeconds =
    entry.startupTimeout == null ? undefined : clampSeconds(entry.startupTimeout, 'startupTimeout', warning);
  const common: CommonServerConfig = {
    name,
    disabled: entry.disabled ?? false,
    autoApprove: entry.autoApprove ?? [],
    disabledTools: entry.disabledTools ?? [],
    timeoutSeconds,
    ...(startupTimeoutSeconds === undefined ? {} : { startupTimeoutSeconds }),
    ...(entry.sampling
      ? {
          sampling: {
            ...(entry.sampling.model ? { model: entry.sampling.model } : {}),
            approval: entry.sampling.approval ?? defaultSamplingApproval,
          },
        }
      : {}),
  };
  const config = buildConfig(entry, common, error);
  if (problems.some((problem) => problem.severity === 'error')) return { name, problems };
  return { name, config, problems };
}

function buildConfig(
  entry: RawEntry,
  common: CommonServerConfig,
  error: (field: string, message: string) => void,
): ServerConfig | undefined {
  const type = entry.type === 'http' ? 'streamableHttp' : entry.type;
  const isRemote = type === 'streamableHttp' || type === 'sse' || (type == null && entry.url != null && !entry.command);
  if (type == null && entry.command && entry.url != null) {
    error('', 'has both a command and a url: remove one, or set type to stdio, streamableHttp or sse');
    return undefined;
  }
  if (!isRemote) {
    if (!entry.command) {
      error(type === 'stdio' ? 'command' : '', type === 'stdio' ? 'required for a stdio server' : missingBoth);
      return undefined;
    }
    return {
      ...common,
      transport: 'stdio',
      command: entry.command,
      args: entry.args ?? [],
      env: entry.env ?? {},
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
    };
  }
  if (entry.url == null) {
    error('url', `required for a remote server (type ${type})`);
    return undefined;
  }
  const urlProblem = checkUrl(entry.url);
  if (urlProblem) {
    error('url', urlProblem);
    return undefined;
  }
  return {
    ...common,
    transport: type ?? 'streamableHttp',
    url: entry.url,
    headers: entry.headers ?? {},
    sseFallback: type == null,
    ...(entry.oauth?.clientMetadataUrl || entry.oauth?.clientId ? { oauth: oauthSettings(entry.oauth) } : {}),
  };
}

function oauthSettings(oauth: NonNullable<RawEntry['oauth']>): NonNullable<RemoteServerConfig['oauth']> {
  return {
    ...(oauth.clientMetadataUrl ? { clientMetadataUrl: oauth.clientMetadataUrl } : {}),
    ...(oauth.clientId ? { clientId: oauth.clientId } : {}),
  };
}

const missingBoth = 'needs a command (a local server) or a url (a remote server)';

/** A URL built from `${env:VAR}` can only be checked once expanded, at start time. */
export function checkUrl(url: string): string | undefined {
  if (url.includes('${env:') || url.includes('${secret:')) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `expected an http(s) URL, got ${describeValue(url)}`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `expected an http(s) URL, got ${describeValue(url)}`;
  }
  return undefined;
}

function clampSeconds(value: number, field: string, warning: (field: string, message: string) => void): number {
  if (value < minTimeoutSeconds) {
    warning(field, `${value} is below the minimum of ${minTimeoutSeconds} s; using ${minTimeoutSeconds}`);
    return minTimeoutSeconds;
  }
  if (value > maxTimeoutSeconds) {
    warning(field, `${value} is above the maximum of ${maxTimeoutSeconds} s; using ${maxTimeoutSeconds}`);
    return maxTimeoutSeconds;
  }
  return value;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}

function entryProblem(
  name: string,
  field: string,
  message: string,
  severity: SettingsProblem['severity'],
): SettingsProblem {
  const suffix = field === '' ? '' : field.startsWith('.') || field.startsWith('[') ? field : `.${field}`;
  return { path: `mcpServers.${name}${suffix}`, server: name, message, severity };
}

function fileProblem(path: string, message: string): SettingsProblem {
  return { path: path || 'mcp_settings.json', message, severity: 'error' };
}

export function formatProblem(problem: SettingsProblem): string {
  return `${problem.path}: ${problem.message}`;
}
