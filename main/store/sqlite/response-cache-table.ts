// SQL for response_cache (../contract/response-cache.ts): one process or several on one file share it.

import type { Database, Statement } from 'better-sqlite3';
import type { CachedResponseRow, ResponseCacheLimits } from '../contract/response-cache.js';

export const responseCacheSchema = `
  CREATE TABLE response_cache (
    key TEXT PRIMARY KEY NOT NULL,
    body TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX response_cache_by_use ON response_cache (used_at);
  ALTER TABLE usage_log ADD COLUMN cache TEXT;
  ALTER TABLE usage_log ADD COLUMN saved_cost REAL;
`;

interface Columns {
  key: string;
  body: string;
  created_at: number;
  expires_at: number;
}

export class ResponseCacheTable {
  private readonly readStatement: Statement<[string, number], Columns>;
  private readonly touchStatement: Statement<[number, string]>;
  private readonly writeStatement: Statement<[Columns & { bytes: number; used_at: number }]>;
  private readonly expireStatement: Statement<[number]>;
  private readonly evictStatement: Statement<[number, number]>;

  constructor(private readonly db: Database) {
    this.readStatement = db.prepare(
      'SELECT key, body, created_at, expires_at FROM response_cache WHERE key = ? AND expires_at > ?',
    );
    this.touchStatement = db.prepare('UPDATE response_cache SET used_at = ? WHERE key = ?');
    this.writeStatement = db.prepare(
      `INSERT INTO response_cache (key, body, bytes, created_at, expires_at, used_at)
       VALUES (@key, @body, @bytes, @created_at, @expires_at, @used_at)
       ON CONFLICT (key) DO UPDATE SET body = excluded.body, bytes = excluded.bytes,
         created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = excluded.used_at`,
    );
    this.expireStatement = db.prepare('DELETE FROM response_cache WHERE expires_at <= ?');
    // Keeps the most recently used entries that fit both limits, newest first, and deletes the rest.
    this.evictStatement = db.prepare(
      `DELETE FROM response_cache WHERE key IN (
         SELECT key FROM (
           SELECT key, row_number() OVER newest AS place, sum(bytes) OVER newest AS total
           FROM response_cache WINDOW newest AS (ORDER BY used_at DESC, created_at DESC, key)
         ) WHERE place > ? OR total > ?)`,
    );
  }

  read(key: string, now: number): CachedResponseRow | undefined {
    const row = this.readStatement.get(key, now);
    if (!row) return undefined;
    this.touchStatement.run(now, key);
    return { key: row.key, body: row.body, createdAt: row.created_at, expiresAt: row.expires_at };
  }

  write(row: CachedResponseRow, limits: ResponseCacheLimits): void {
    this.db.transaction(() => {
      this.writeStatement.run({
        key: row.key,
        body: row.body,
        bytes: Buffer.byteLength(row.body),
        created_at: row.createdAt,
        expires_at: row.expiresAt,
        used_at: row.createdAt,
      });
      this.expireStatement.run(row.createdAt);
      this.evictStatement.run(limits.maxEntries, limits.maxBytes);
    })();
  }
}
