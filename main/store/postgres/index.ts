// The store on PostgreSQL (decision 017): `openPostgresStore` for `--database-url`, and its migrations.

export { openPostgresStore, PostgresStore, type PostgresStoreOptions } from './postgres-store.js';
export { migratePostgres, postgresSchemaVersion } from './migrate.js';
export { isPostgresRowRejection } from './row-rejection.js';
