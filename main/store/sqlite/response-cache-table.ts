// SQL for response_cache (../contract/response-cache.ts): one process or several on one file share it.

import type { Database, Statement } from 'better-sqlite3';
import {
  entriesToEvict,
  EvictionSchedule,
  type CachedResponseRow,
  type ResponseCacheLimits,
} from '../contract/response-cache.js';

export const responseCacheSchema = `
  CREATE TABLE response_cache (
    key TEXT PRIMARY KEY NOT NULL,
    body TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX response_cache_by_use ON response_cache (used_at, bytes);
  CREATE INDEX response_cache_by_expiry ON response_cache (expires_at);
  ALTER TABLE usage_log ADD COLUMN cache TEXT;
  ALTER TABLE usage_log ADD COLUMN saved_cost REAL;
`;

/** How much the table holds: read from the index on (used_at, bytes), never from the answers themselves. */
interface Totals {
  entries: number;
  bytes: number;
}

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
  private readonly totalsStatement: Statement<[], Totals>;
  private readonly evictStatement: Statement<[number]>;
  private readonly schedule = new EvictionSchedule();

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
    this.totalsStatement = db.prepare(
      'SELECT count(*) AS entries, total(bytes) AS bytes FROM response_cache INDEXED BY response_cache_by_use',
    );
    this.evictStatement = db.prepare(
      'DELETE FROM response_cache WHERE key IN (SELECT key FROM response_cache ORDER BY used_at LIMIT ?)',
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
      const bytes = Buffer.byteLength(row.body);
      this.writeStatement.run({
        key: row.key,
        body: row.body,
        bytes,
        created_at: row.createdAt,
        expires_at: row.expiresAt,
        used_at: row.createdAt,
      });
      if (!this.schedule.due(bytes)) return;
      this.expireStatement.run(row.createdAt);
      let held = this.totalsStatement.get()!;
      for (let count = entriesToEvict(held, limits); count > 0; count = entriesToEvict(held, limits)) {
        this.evictStatement.run(count);
        held = this.totalsStatement.get()!;
      }
      this.schedule.counted(held, limits);
    })();
  }
}
