// How each `switchyard mcp …` command that talks to servers runs them: a manager of its own, started for the
// command and stopped after it, whole process trees included, Ctrl+C too.

import path from 'node:path';
import { resolveDataDir } from '../app/index.js';
import { createLogger } from '../common/index.js';
import { McpManager, McpSecrets, OAuthCredentials, readSettingsFile, type ServerSnapshot } from '../mcp/index.js';
import { openSecretStore, type SecretStore } from '../secrets/index.js';
import type { Output } from './output.js';

export interface ManagerRun {
  dataDir?: string;
  /** Start only this server (and require it to connect). */
  server?: string;
  /** The command ends on Ctrl+C by itself (`logs --follow`) instead of being interrupted. */
  runsUntilInterrupted?: boolean;
  /** Where the secret store's warning goes, if a remote server makes us open it. */
  output: Output;
}

/**
 * Runs `work` with a started manager and always stops it. The servers run in their own process groups, so a
 * Ctrl+C in the terminal does not reach them: we catch it and stop them ourselves.
 */
export async function withManager(
  run: ManagerRun,
  work: (manager: McpManager, interrupted: Promise<void>) => Promise<void>,
  requiredServer: string | undefined = run.server,
): Promise<void> {
  const dataDir = resolveDataDir(run.dataDir);
  let secrets: Promise<SecretStore> | undefined;
  // Opened only when a remote server has a sign-in or an entry a secret to read: the keychain probe costs a round trip.
  const openSecrets = () =>
    (secrets ??= openSecretStore({ dataDir }).then(({ store, warning }) => {
      if (warning) run.output.err(`warning: ${warning}`);
      return store;
    }));
  const manager = new McpManager({
    dataDir,
    oauth: new OAuthCredentials(openSecrets),
    secrets: new McpSecrets(openSecrets),
    // Failures are reported by the command itself; the log would say the same thing twice.
    logger: createLogger(process.env.SWITCHYARD_LOG_LEVEL ?? 'error'),
    watch: false,
    restartPolicy: { maxRestarts: 0 },
    ...(requiredServer ? { only: [requiredServer] } : {}),
  });
  let interrupt!: () => void;
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  const onSignal = () => interrupt();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await manager.start();
    if (run.server) await requireConnected(manager, run.server);
    const working = work(manager, interrupted);
    if (run.runsUntilInterrupted) await working;
    else await Promise.race([working, interrupted.then(() => Promise.reject(new Error('Interrupted.')))]);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await manager.stop();
  }
}

export async function requireServer(manager: McpManager, name: string): Promise<ServerSnapshot> {
  const server = manager.server(name);
  if (server) return server;
  // The manager only loaded `name`; the file says what the user could have meant.
  const names = (await readSettingsFile(path.dirname(manager.settingsPath))).entries.map((entry) => entry.name);
  const known = names.length > 0 ? ` Servers there: ${names.join(', ')}.` : '';
  throw new Error(`No MCP server "${name}" in ${manager.settingsPath}.${known}`);
}

async function requireConnected(manager: McpManager, name: string): Promise<void> {
  await requireServer(manager, name);
  const server = (await manager.waitUntilSettled()).find((snapshot) => snapshot.name === name);
  if (server?.state === 'connected') return;
  if (server?.state === 'disabled') {
    throw new Error(`Server "${name}" is disabled in ${manager.settingsPath}; set "disabled": false to use it.`);
  }
  throw new Error(`Server "${name}" did not start: ${server?.message ?? server?.state ?? 'unknown'}`);
}
