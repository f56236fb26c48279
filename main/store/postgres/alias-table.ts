// SQL for model_aliases in PostgreSQL's dialect: the writes of the PostgreSQL engine. Reads come from the snapshot
// (replica.ts), through the SQLite engine's AliasTable.

import type pg from 'pg';
import type { ModelAliasInfo } from '../../../shared/api/index.js';

/**
 * Creates the alias or points it to `target` (keeping its created_at); returns what it was before. Call inside a
 * transaction that holds the changes lock (postgres-store.ts), so that the previous target read is the one replaced.
 */
export async function setModelAlias(
  client: pg.ClientBase,
  name: string,
  target: string,
  createdAt: number,
): Promise<ModelAliasInfo | undefined> {
  const { rows } = await client.query<{ name: string; target: string; created_at: number }>(
    'SELECT name, target, created_at FROM model_aliases WHERE name = $1',
    [name],
  );
  await client.query(
    `INSERT INTO model_aliases (name, target, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET target = excluded.target`,
    [name, target, createdAt],
  );
  const previous = rows[0];
  return previous && { ...previous, created_at: new Date(previous.created_at).toISOString() };
}

export async function removeModelAlias(client: pg.ClientBase, name: string): Promise<boolean> {
  const { rowCount } = await client.query('DELETE FROM model_aliases WHERE name = $1', [name]);
  return (rowCount ?? 0) > 0;
}
