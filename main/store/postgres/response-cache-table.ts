// SQL for response_cache in PostgreSQL's dialect (../sqlite/response-cache-table.ts). Read from the database on
// every lookup, never from the snapshot replica, so that every instance sees what another stored.

import type pg from 'pg';
import {
  entriesToEvict,
  EvictionSchedule,
  type CachedResponseRow,
  type ResponseCacheLimits,
  type ResponseCacheStore,
} from '../contract/response-cache.js';

export const responseCacheSchema = `
  CREATE TABLE response_cache (
    key text PRIMARY KEY,
    body text NOT NULL,
    bytes bigint NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used_at bigint NOT NULL
  );
  CREATE INDEX response_cache_by_use ON response_cache (used_at) INCLUDE (bytes);
  CREATE INDEX response_cache_by_expiry ON response_cache (expires_at);
  ALTER TABLE usage_log ADD COLUMN cache text;
  ALTER TABLE usage_log ADD COLUMN saved_cost double precision;
`;

export class PostgresResponseCacheTable implements ResponseCacheStore {
  private readonly schedule = new EvictionSchedule();

  constructor(private readonly pool: pg.Pool) {}

  async read(key: string, now: number): Promise<CachedResponseRow | undefined> {
    const { rows } = await this.pool.query<CachedResponseRow>(
      `UPDATE response_cache SET used_at = $2 WHERE key = $1 AND expires_at > $2
       RETURNING key, body, created_at::float8 AS "createdAt", expires_at::float8 AS "expiresAt"`,
      [key, now],
    );
    return rows[0];
  }

  async write(row: CachedResponseRow, limits: ResponseCacheLimits): Promise<void> {
    const bytes = Buffer.byteLength(row.body);
    await this.pool.query(
      `INSERT INTO response_cache (key, body, bytes, created_at, expires_at, used_at)
       VALUES ($1, $2, $3, $4, $5, $4)
       ON CONFLICT (key) DO UPDATE SET body = excluded.body, bytes = excluded.bytes,
         created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = excluded.used_at`,
      [row.key, row.body, bytes, row.createdAt, row.expiresAt],
    );
    if (!this.schedule.due(bytes)) return;
    await this.pool.query('DELETE FROM response_cache WHERE expires_at <= $1', [row.createdAt]);
    let held = await this.totals();
    for (let count = entriesToEvict(held, limits); count > 0; count = entriesToEvict(held, limits)) {
      await this.pool.query(
        'DELETE FROM response_cache WHERE key IN (SELECT key FROM response_cache ORDER BY used_at LIMIT $1)',
        [count],
      );
      held = await this.totals();
    }
    this.schedule.counted(held, limits);
  }

  /** How much the table holds, from the index on (used_at, bytes). */
  private async totals(): Promise<{ entries: number; bytes: number }> {
    const { rows } = await this.pool.query<{ entries: number; bytes: number }>(
      'SELECT count(*)::float8 AS entries, coalesce(sum(bytes), 0)::float8 AS bytes FROM response_cache',
    );
    return rows[0]!;
  }
}
