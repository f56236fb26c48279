// What the MCP manager is built with, and what each server connection it runs gets from that: the defaults for
// what the caller left out, and the manager's own answerers for questions and sampling requests.

import type { Logger } from '../common/index.js';
import { serverSearchPath } from './login-shell-path.js';
import type { McpSecrets } from './mcp-secrets.js';
import type { OAuthCredentials } from './oauth/index.js';
import { defaultRestartPolicy, type RestartPolicy } from './restart-policy.js';
import type { SamplingModels } from './sampling.js';
import type { ServerConnectionOptions } from './server-connection.js';
import { defaultStartupTimeoutSeconds } from './settings-schema.js';
import type { ElicitationHandler, SamplingHandler } from './types.js';

export interface McpManagerOptions {
  dataDir: string;
  logger: Logger;
  /** Apply edits of the settings file as they happen (default true; the short-lived CLI turns it off). */
  watch?: boolean;
  /** Start-up and handshake limit for entries without `startupTimeout` (default 30 s). */
  startupTimeoutMs?: number;
  restartPolicy?: Partial<RestartPolicy>;
  /** Manage only these servers and ignore the rest of the file (the CLI's `mcp tools NAME`). */
  only?: string[];
  /** Where `${env:VAR}` is looked up (default process.env). */
  environment?: NodeJS.ProcessEnv;
  /** The PATH commands are looked up in (default: ours plus the login shell's). */
  searchPath?: () => Promise<string>;
  clientInfo?: { name: string; version: string };
  /** Debounce of file-change events. */
  watchDebounceMs?: number;
  /** Where remote servers' OAuth sign-ins are kept (the secret store); without it they cannot sign in. */
  oauth?: OAuthCredentials;
  /** Where `${secret:NAME}` values are kept (the secret store); without it entries using one do not start. */
  secrets?: McpSecrets;
  /** How servers' sampling requests reach a model (the app's gateway); unset: they are refused. */
  sampling?: SamplingModels;
}

/** Each connection's options: the manager's, with defaults, and the manager's answerers. */
export function connectionOptionsOf(
  options: McpManagerOptions,
  answerers: { elicit: ElicitationHandler; sample: SamplingHandler },
): ServerConnectionOptions {
  return {
    logger: options.logger,
    defaultStartupTimeoutMs: options.startupTimeoutMs ?? defaultStartupTimeoutSeconds * 1000,
    restartPolicy: { ...defaultRestartPolicy, ...options.restartPolicy },
    environment: options.environment ?? process.env,
    searchPath: options.searchPath ?? serverSearchPath,
    clientInfo: options.clientInfo ?? { name: 'Switchyard', version: '0.1.0' },
    ...(options.oauth ? { oauth: options.oauth } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...answerers,
  };
}
