// SQL for the providers table in PostgreSQL's dialect: the writes of the PostgreSQL engine. Reads come from the
// snapshot (replica.ts), through the SQLite engine's ProviderTable.

import type pg from 'pg';
import type { ProviderInfo } from '../../../shared/api/index.js';
import { toProviderColumns } from '../contract/providers.js';

/** Adds the provider or updates it; an update keeps the original created_at. */
export async function upsertProvider(client: pg.ClientBase, provider: ProviderInfo): Promise<void> {
  const columns = toProviderColumns(provider);
  await client.query(
    `INSERT INTO providers (id, kind, base_url, has_api_key, created_at, api_key_tail, timeouts, cooldown)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, base_url = excluded.base_url,
       has_api_key = excluded.has_api_key, api_key_tail = excluded.api_key_tail, timeouts = excluded.timeouts,
       cooldown = excluded.cooldown`,
    [
      columns.id,
      columns.kind,
      columns.base_url,
      columns.has_api_key !== 0,
      columns.created_at,
      columns.api_key_tail,
      columns.timeouts,
      columns.cooldown,
    ],
  );
}

export async function removeProvider(client: pg.ClientBase, id: string): Promise<boolean> {
  const { rowCount } = await client.query('DELETE FROM providers WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}
