// ui_sessions on PostgreSQL (migration 10): sign-ins to a team server's UI. Asked on every UI request by whichever
// instance gets it, so no instance holds a copy that could outlive a revocation; UI traffic is a few requests a
// second at most. Deleting a key deletes its sessions (ON DELETE CASCADE).

import type pg from 'pg';
import type { UiSessionRow, UiSessionStore } from '../contract/store-interface.js';

// Read under UiSessionRow's field names, so that a row is a UiSessionRow as it comes.
const columns =
  'id, key_id AS "keyId", created_at AS "createdAt", expires_at AS "expiresAt", revoked_at AS "revokedAt"';

export class PostgresUiSessionTable implements UiSessionStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(session: UiSessionRow & { tokenHash: Buffer }): Promise<void> {
    await this.pool.query(
      `INSERT INTO ui_sessions (id, token_hash, key_id, created_at, expires_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [session.id, session.tokenHash, session.keyId, session.createdAt, session.expiresAt, session.revokedAt],
    );
  }

  async findByTokenHash(tokenHash: Buffer): Promise<UiSessionRow | undefined> {
    const { rows } = await this.pool.query<UiSessionRow>(`SELECT ${columns} FROM ui_sessions WHERE token_hash = $1`, [
      tokenHash,
    ]);
    return rows[0];
  }

  async revoke(id: string, at: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'UPDATE ui_sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL',
      [id, at],
    );
    return (rowCount ?? 0) > 0;
  }

  async list(): Promise<UiSessionRow[]> {
    const { rows } = await this.pool.query<UiSessionRow>(
      `SELECT ${columns} FROM ui_sessions ORDER BY created_at DESC, id`,
    );
    return rows;
  }
}
