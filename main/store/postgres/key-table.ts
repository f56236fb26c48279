// SQL for api_keys, key_rules and deleted_api_keys in PostgreSQL's dialect: the writes of the PostgreSQL engine.
// Reads come from the snapshot (replica.ts), through the SQLite engine's own KeyTable and KeyRulesTable.

import type pg from 'pg';
import { toKeyRulesColumns, type KeyRulesRow, type NewKeyRow } from '../contract/keys.js';

const ruleColumns =
  'key_id, limit_nanos, limit_reset, allowed_models, allowed_providers, management, expires_at, disabled, rpm, tpm, ' +
  'allowed_mcp, metrics';

export async function insertKey(client: pg.ClientBase, row: NewKeyRow): Promise<void> {
  await client.query('INSERT INTO api_keys (id, name, label, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
    row.id,
    row.name,
    row.label,
    row.secretHash,
    row.createdAt,
  ]);
}

/** False when no key has this id. */
export async function setKeyRules(client: pg.ClientBase, keyId: string, rules: KeyRulesRow): Promise<boolean> {
  const columns = toKeyRulesColumns(keyId, rules);
  const { rowCount } = await client.query(
    `INSERT INTO key_rules (${ruleColumns})
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = $1)
     ON CONFLICT (key_id) DO UPDATE SET limit_nanos = excluded.limit_nanos, limit_reset = excluded.limit_reset,
       allowed_models = excluded.allowed_models, allowed_providers = excluded.allowed_providers,
       management = excluded.management, expires_at = excluded.expires_at, disabled = excluded.disabled,
       rpm = excluded.rpm, tpm = excluded.tpm, allowed_mcp = excluded.allowed_mcp,
       metrics = excluded.metrics`,
    [
      columns.key_id,
      columns.limit_nanos,
      columns.limit_reset,
      columns.allowed_models,
      columns.allowed_providers,
      columns.management !== 0,
      columns.expires_at,
      columns.disabled !== 0,
      columns.rpm,
      columns.tpm,
      columns.allowed_mcp,
      columns.metrics !== 0,
    ],
  );
  return (rowCount ?? 0) > 0;
}

/** Keeps the key's name (deletedKeyNames) for the usage it leaves behind. */
export async function deleteKey(client: pg.ClientBase, id: string, deletedAt: number): Promise<boolean> {
  await client.query(
    `INSERT INTO deleted_api_keys (id, name, deleted_at) SELECT id, name, $2 FROM api_keys WHERE id = $1
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, deleted_at = excluded.deleted_at`,
    [id, deletedAt],
  );
  const { rowCount } = await client.query('DELETE FROM api_keys WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

export async function renameKey(client: pg.ClientBase, id: string, name: string): Promise<boolean> {
  const { rowCount } = await client.query('UPDATE api_keys SET name = $2 WHERE id = $1', [id, name]);
  return (rowCount ?? 0) > 0;
}

export async function deletedKeyNames(client: pg.Pool): Promise<Map<string, string>> {
  const { rows } = await client.query<{ id: string; name: string }>('SELECT id, name FROM deleted_api_keys');
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Flushes from two instances may arrive out of order; last_used_at never moves back. */
export async function touchKeys(client: pg.Pool, lastUsed: ReadonlyMap<string, number>): Promise<void> {
  await client.query(
    `UPDATE api_keys AS k SET last_used_at = t.at FROM unnest($1::text[], $2::bigint[]) AS t (id, at)
     WHERE k.id = t.id AND (k.last_used_at IS NULL OR k.last_used_at < t.at)`,
    [[...lastUsed.keys()], [...lastUsed.values()]],
  );
}
