// Tells apart "this row can never be written" from "the database could not be written just now", so that
// batch writers can drop a bad row instead of retrying it forever and blocking every row behind it.

import Database from 'better-sqlite3';
import { isPostgresRowRejection } from './postgres/row-rejection.js';

/** True when the database refused the data itself (a constraint or type check), not the write; either engine. */
export function isRowRejection(error: unknown): boolean {
  return (
    (error instanceof Database.SqliteError && /^SQLITE_(CONSTRAINT|MISMATCH)/.test(error.code)) ||
    isPostgresRowRejection(error)
  );
}
