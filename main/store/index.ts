// The store: SQLite in the data folder or PostgreSQL (decision 017); the only place in the codebase that writes SQL.

export { openStore, databaseFileName } from './open-store.js';
export { SqliteStore } from './store.js';
export type { ChatStore, McpCallStore, Store, StoreEngine, UiSessionRow, UiSessionStore } from './store-interface.js';
export { StoreVersionError } from './migrate.js';
export { checkDatabaseReadiness, type DatabaseReadiness } from './readiness.js';
export type { KeyRow, NewKeyRow } from './key-table.js';
export type { UsageQuery, UsageSummaryGroup, UsageSummaryQuery } from './usage-table.js';
export { defaultKeyRules, type KeyRulesRow } from './key-rules-table.js';
export {
  msPerDay,
  type CreditAccountRow,
  type CreditChange,
  type CreditLedgerRow,
  type SpentUsage,
} from './spend-table.js';
export type { PriceRow } from './price-table.js';
export type { ChatTable, ConversationChanges, MessageChanges } from './chat-table.js';
export type { ChatLibraryStore } from './store-interface.js';
export type { ConversationPlace } from './chat-library-table.js';
export type { McpCallRow, McpCallTable } from './mcp-call-table.js';
