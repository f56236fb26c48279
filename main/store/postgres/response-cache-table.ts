// SQL for response_cache in PostgreSQL's dialect (../sqlite/response-cache-table.ts). Read from the database on
// every lookup, never from the snapshot replica, so that every instance sees what another stored.

import type pg from 'pg';
import type { CachedResponseRow, ResponseCacheLimits, ResponseCacheStore } from '../contract/response-cache.js';

export const responseCacheSchema = `
  CREATE TABLE response_cache (
    key text PRIMARY KEY,
    body text NOT NULL,
    bytes bigint NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used_at bigint NOT NULL
  );
  CREATE INDEX response_cache_by_use ON response_cache (used_at);
  ALTER TABLE usage_log ADD COLUMN cache text;
  ALTER TABLE usage_log ADD COLUMN saved_cost double precision;
`;

export class PostgresResponseCacheTable implements ResponseCacheStore {
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
    await this.pool.query(
      `INSERT INTO response_cache (key, body, bytes, created_at, expires_at, used_at)
       VALUES ($1, $2, $3, $4, $5, $4)
       ON CONFLICT (key) DO UPDATE SET body = excluded.body, bytes = excluded.bytes,
         created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = excluded.used_at`,
      [row.key, row.body, Buffer.byteLength(row.body), row.createdAt, row.expiresAt],
    );
    // A statement of its own, so that it sees the entry just written.
    await this.pool.query(
      `DELETE FROM response_cache WHERE expires_at <= $1 OR key IN (
         SELECT key FROM (
           SELECT key, row_number() OVER newest AS place, sum(bytes) OVER newest AS total
           FROM response_cache WINDOW newest AS (ORDER BY used_at DESC, created_at DESC, key)
         ) AS ranked WHERE place > $2 OR total > $3)`,
      [row.createdAt, limits.maxEntries, limits.maxBytes],
    );
  }
}
