// PostgreSQL's side of Store.isRowRejection (SQLite's is ../row-rejection.ts): the server refused the data itself —
// a NOT NULL, CHECK or foreign key constraint (SQLSTATE class 23) or a value out of its type's range (class 22) — not
// the write, so a batch writer drops the row instead of retrying it forever.

import pg from 'pg';

export function isPostgresRowRejection(error: unknown): boolean {
  return error instanceof pg.DatabaseError && /^2[23]/.test(error.code ?? '');
}
