// SQL for model_aliases in PostgreSQL's dialect: the writes of the PostgreSQL engine. Reads come from the snapshot
// (replica.ts), through the SQLite engine's AliasTable.

import type pg from 'pg';
import type { AliasGroup, ModelAliasInfo } from '../../../shared/api/index.js';
import { aliasColumns, toAliasInfo, type AliasColumns } from '../contract/alias-columns.js';

/**
 * Creates the alias or points it to `group` (keeping its created_at); returns what it was before. Call inside a
 * transaction that holds the changes lock (postgres-store.ts), so that the previous group read is the one replaced.
 */
export async function setModelAlias(
  client: pg.ClientBase,
  name: string,
  group: AliasGroup,
  createdAt: number,
): Promise<ModelAliasInfo | undefined> {
  const { rows } = await client.query<AliasColumns>(
    'SELECT name, target, targets, strategy, weights, created_at FROM model_aliases WHERE name = $1',
    [name],
  );
  const columns = aliasColumns(name, group, createdAt);
  await client.query(
    `INSERT INTO model_aliases (name, target, targets, strategy, weights, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (name) DO UPDATE SET target = excluded.target, targets = excluded.targets,
       strategy = excluded.strategy, weights = excluded.weights`,
    [name, columns.target, columns.targets, columns.strategy, columns.weights, createdAt],
  );
  const previous = rows[0];
  return previous && toAliasInfo({ ...previous, created_at: Number(previous.created_at) });
}

export async function removeModelAlias(client: pg.ClientBase, name: string): Promise<boolean> {
  const { rowCount } = await client.query('DELETE FROM model_aliases WHERE name = $1', [name]);
  return (rowCount ?? 0) > 0;
}
