// SQLite's side of Store.isRowRejection: tells apart "this row can never be written" from "the database could not
// be written just now", so that batch writers can drop a bad row instead of retrying it forever and blocking every
// row behind it. PostgreSQL's is postgres/row-rejection.ts, loaded only with that engine.

import Database from 'better-sqlite3';

/** True when SQLite refused the data itself (a constraint or type check), not the write. */
export function isSqliteRowRejection(error: unknown): boolean {
  return error instanceof Database.SqliteError && /^SQLITE_(CONSTRAINT|MISMATCH)/.test(error.code);
}
