// The settings edits that keep secrets out of mcp_settings.json, for McpManager: saving a server whose form marked
// values secret (they go to the store first, the references to the file), removing a server with the secrets only
// it used, and what the screen may know of the stored values (the last four characters, never more).

import { ApiError } from '../../shared/api/index.js';
import type { McpSecrets } from './mcp-secrets.js';
import { deleteUnreferenced, planMarkedSecrets, secretUses, type SecretValues } from './secret-edits.js';
import { referencedSecretNames } from './secret-references.js';
import { removeServerEntry, saveServerEntry, type SettingsWrite } from './settings-editor.js';
import { readSettingsFile } from './settings-file.js';
import { parseEntry } from './settings-schema.js';

export type { SecretValues };

/** A secret the settings reference: which servers use it, and its value masked (null: none is stored). */
export interface SecretHint {
  name: string;
  servers: string[];
  masked: string | null;
}

/**
 * saveServerEntry, with the values in `marked` stored as secrets first. Nothing is stored when the entry has errors;
 * secrets the server used before and nothing references now are deleted.
 */
export async function saveServerWithSecrets(
  dataDir: string,
  secrets: McpSecrets | undefined,
  server: { name: string; entry: Record<string, unknown>; previous?: string },
  marked: SecretValues,
): Promise<SettingsWrite> {
  const hasMarked = Object.values(marked).some((values) => Object.keys(values).length > 0);
  if (hasMarked && !secrets) throw new ApiError(400, 'Secrets cannot be stored here: no secret store is open.');
  const before = (await readSettingsFile(dataDir)).raw;
  const plan = planMarkedSecrets(before, server, marked);
  const problems = parseEntry(server.name, plan.entry).problems;
  if (problems.some((problem) => problem.severity === 'error')) return { saved: false, problems };
  for (const [name, value] of plan.values) await secrets!.store(name, value);
  const write = await saveServerEntry(dataDir, server.name, plan.entry, server.previous);
  if (secrets) {
    const previous = server.previous === undefined ? undefined : before?.mcpServers?.[server.previous];
    await deleteUnreferenced(secrets, referencedSecretNames(previous), (await readSettingsFile(dataDir)).raw);
  }
  return write;
}

/** removeServerEntry, and the secrets of the server that no other entry references. */
export async function removeServerWithSecrets(
  dataDir: string,
  secrets: McpSecrets | undefined,
  name: string,
): Promise<boolean> {
  const used = referencedSecretNames((await readSettingsFile(dataDir)).raw?.mcpServers?.[name]);
  const removed = await removeServerEntry(dataDir, name);
  if (removed && secrets) await deleteUnreferenced(secrets, used, (await readSettingsFile(dataDir)).raw);
  return removed;
}

/** Every secret the settings reference, masked; without a store, none. */
export async function secretHints(dataDir: string, secrets: McpSecrets | undefined): Promise<SecretHint[]> {
  if (!secrets) return [];
  const uses = secretUses((await readSettingsFile(dataDir)).raw);
  const hints: SecretHint[] = [];
  for (const [name, servers] of uses) {
    // A bad name (typed by hand) is shown as missing; starting its server says why.
    const masked = await secrets.masked(name).catch(() => null);
    hints.push({ name, servers, masked });
  }
  return hints;
}
