// SQL for target_health in PostgreSQL's dialect: the writes of the PostgreSQL engine. Reads come from the snapshot
// (replica.ts), through the SQLite engine's TargetHealthTable.

import type pg from 'pg';
import type { TargetHealthRow } from '../contract/target-health.js';

export async function setTargetHealth(client: pg.ClientBase, row: TargetHealthRow): Promise<void> {
  await client.query(
    `INSERT INTO target_health (model, provider, state, until, next_cooldown_ms, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (model) DO UPDATE SET provider = excluded.provider, state = excluded.state, until = excluded.until,
       next_cooldown_ms = excluded.next_cooldown_ms, updated_at = excluded.updated_at`,
    [row.model, row.provider, row.state, row.until, row.next_cooldown_ms, row.updated_at],
  );
}

export async function removeTargetHealth(client: pg.ClientBase, model: string): Promise<boolean> {
  const { rowCount } = await client.query('DELETE FROM target_health WHERE model = $1', [model]);
  return (rowCount ?? 0) > 0;
}
