// The store: SQLite in the data folder or PostgreSQL (decision 017); the only place in the codebase that writes SQL.
// The contract (contract/) is what the app asks of either engine; sqlite/ and postgres/ answer it (decision 026).
// The PostgreSQL engine itself loads on first use (openPostgresStore below), only in a process that uses it.

export { openStore } from './sqlite/open-store.js';
export { databaseFileName } from './sqlite/database-file.js';
export { SqliteStore } from './sqlite/store.js';
export { checkDatabaseReadiness } from './sqlite/readiness.js';
export type {
  ChatLibraryStore,
  ChatStore,
  McpCallStore,
  Store,
  StoreEngine,
  UiSessionRow,
  UiSessionStore,
} from './contract/store-interface.js';
export { StoreVersionError } from './contract/schema-version.js';
export type { DatabaseReadiness } from './contract/readiness.js';
export { defaultKeyRules, type KeyRow, type KeyRulesRow, type NewKeyRow } from './contract/keys.js';
export type { UsageQuery, UsageSummaryGroup, UsageSummaryQuery } from './contract/usage.js';
export {
  msPerDay,
  type CreditAccountRow,
  type CreditChange,
  type CreditLedgerRow,
  type SpentUsage,
} from './contract/spend.js';
export type { PriceRow } from './contract/prices.js';
export type { ConversationChanges, MessageChanges } from './contract/chat.js';
export type { ConversationPlace } from './contract/chat-library.js';
export type { McpCallRow } from './contract/mcp-calls.js';
export type { CachedResponseRow, ResponseCacheLimits, ResponseCacheStore } from './contract/response-cache.js';
// Migrating a PostgreSQL database without opening a store (`switchyard secret-key rotate`). Only the migrations'
// SQL loads with these: the driver is the caller's.
export { migratePostgres, postgresSchemaVersion } from './postgres/migrate.js';
export { databaseUrlFrom, databaseUrlVariable, redactDatabaseUrl } from './database-url.js';
import type { PostgresStore, PostgresStoreOptions } from './postgres/index.js';
export type { PostgresStore, PostgresStoreOptions };

/**
 * The PostgreSQL store of a team server, its module and driver loaded only here: a process on SQLite has no use for
 * them (about 1 MB of heap).
 */
export async function openPostgresStore(url: string, options?: PostgresStoreOptions): Promise<PostgresStore> {
  const postgres = await import('./postgres/index.js');
  return postgres.openPostgresStore(url, options);
}
