// SQLite storage: the only place in the codebase that writes SQL.

export { openStore, databaseFileName } from './open-store.js';
export { Store } from './store.js';
export { StoreVersionError } from './migrate.js';
export type { KeyRow, NewKeyRow } from './key-table.js';
export type { UsageQuery } from './usage-table.js';
export { isRowRejection } from './row-rejection.js';
