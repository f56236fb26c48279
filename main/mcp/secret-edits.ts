// Edits of mcp_settings.json that move secrets: the server form's values marked secret go to the store and their
// references into the entry; `mcp import` moves the values of secret-looking variables and headers the same way;
// a secret no entry references any more (its server removed, its field given a new secret) is deleted. Which
// secrets the file uses is read from the file itself, so there is no second list to drift from it.

import { findSecrets, secretFields, type FoundSecret, type SecretField } from '../../shared/mcp/secret-fields.js';
import type { McpSecrets } from './mcp-secrets.js';
import { newSecretName, referencedSecretNames, secretReference } from './secret-references.js';
import type { RawSettings } from './settings-file.js';

export type { FoundSecret, SecretField };

/** New values the person marked secret, by field and name (`{ env: { GITHUB_TOKEN: 'ghp_…' } }`). */
export type SecretValues = Partial<Record<SecretField, Record<string, string>>>;

/** The servers that reference each secret name, in the file's order. */
export function secretUses(raw: RawSettings | undefined): Map<string, string[]> {
  const uses = new Map<string, string[]>();
  for (const [server, entry] of Object.entries(serversOf(raw))) {
    for (const name of referencedSecretNames(entry)) uses.set(name, [...(uses.get(name) ?? []), server]);
  }
  return uses;
}

/** Values to put in the store, by name, and the entry that names them. */
export interface SecretPlan {
  entry: Record<string, unknown>;
  values: Map<string, string>;
}

/**
 * Where the values marked secret for a server go: its entry with references in their place, and each value by the
 * name it gets. Always a name no entry uses yet: a stored value in use is never overwritten (a save that then fails
 * changes nothing), and the entry changes with it, so the running server restarts with the new value; the old name
 * is deleted once nothing references it. Stores nothing.
 */
export function planMarkedSecrets(
  raw: RawSettings | undefined,
  server: { name: string; entry: Record<string, unknown> },
  marked: SecretValues,
): SecretPlan {
  const taken = new Set(secretUses(raw).keys());
  const entry = structuredClone(server.entry);
  const values = new Map<string, string>();
  for (const field of secretFields) {
    for (const [key, value] of Object.entries(marked[field] ?? {})) {
      const name = newSecretName(server.name, key, taken);
      taken.add(name);
      entry[field] = { ...asObject(entry[field]), [key]: secretReference(name) };
      values.set(name, value);
    }
  }
  return { entry, values };
}

/** Deletes those of `names` that no entry of `raw` references any more; answers the ones deleted. */
export async function deleteUnreferenced(
  secrets: McpSecrets,
  names: string[],
  raw: RawSettings | undefined,
): Promise<string[]> {
  const used = secretUses(raw);
  const deleted: string[] = [];
  for (const name of names) if (!used.has(name) && (await secrets.delete(name))) deleted.push(name);
  return deleted;
}

/**
 * Moves the secrets found in `theirs` (another app's config) for the servers `names` into the store: answers a copy
 * of `theirs` with references in their place. `raw`: our settings, whose secret names the new ones must not take.
 */
export async function moveFoundSecrets(
  secrets: McpSecrets,
  theirs: unknown,
  names: string[],
  raw: RawSettings | undefined,
): Promise<{ theirs: unknown; moved: FoundSecret[] }> {
  const copy = structuredClone(theirs) as RawSettings;
  const servers = serversOf(copy);
  const chosen = Object.fromEntries(names.filter((name) => name in servers).map((name) => [name, servers[name]]));
  const moved = findSecrets(chosen);
  const taken = new Set(secretUses(raw).keys());
  for (const found of moved) {
    const values = asObject(asObject(servers[found.server])?.[found.field])!;
    const name = newSecretName(found.server, found.key, taken);
    taken.add(name);
    values[found.key] = await secrets.store(name, values[found.key] as string);
  }
  return { theirs: copy, moved };
}

function serversOf(raw: RawSettings | undefined): Record<string, unknown> {
  return asObject(raw?.mcpServers) ?? {};
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
