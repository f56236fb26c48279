// What the rest of the app asks of its database, whichever engine holds it (decision 017): SQLite in the data
// folder (the default) or PostgreSQL shared by many instances (`--database-url`).
//
// The methods split along what the gateway's hot path needs:
// - The snapshot, read synchronously from memory: keys and their rules, providers, price overrides, model aliases,
//   the credit account and each key's daily spend. The caches (ApiKeys, SpendTracker, PriceBook, ModelAliases, the
//   provider registry) call these and reload when changeVersion() moves. SQLite answers them from the file;
//   PostgreSQL from a copy in each instance, refreshed by notifications.
// - Everything else is asynchronous: every write, usage rows and their listings, the ledger, conversations and
//   MCP hub calls. SQLite does the work at once and resolves; PostgreSQL does it on the server.

import type { TargetHealthRow } from './target-health.js';
import type { AliasGroup, ModelAliasInfo, ProviderInfo, UsageRecord } from '../../../shared/api/index.js';
import type { ChatFolder, ChatMessage, ChatPreset, Conversation } from '../../../shared/bridge/types.js';
import type { ConversationPlace } from './chat-library.js';
import type { ConversationChanges, MessageChanges } from './chat.js';
import type { KeyRow, KeyRulesRow, NewKeyRow } from './keys.js';
import type { McpCallRow } from './mcp-calls.js';
import type { PriceRow } from './prices.js';
import type { ResponseCacheStore } from './response-cache.js';
import type { DatabaseReadiness } from './readiness.js';
import type { CreditAccountRow, CreditChange, CreditLedgerRow } from './spend.js';
import type { UsageQuery, UsageSummaryGroup, UsageSummaryQuery } from './usage.js';

/** Conversations and messages of the app's chat (main/chat). */
export interface ChatStore {
  insertConversation(conversation: Conversation): Promise<void>;
  getConversation(id: string): Promise<Conversation | undefined>;
  /** Most recently updated first; `query` matches titles and message text (substring, any case). */
  listConversations(options?: { query?: string; limit?: number }): Promise<Conversation[]>;
  updateConversation(id: string, changes: ConversationChanges, updatedAt: number): Promise<Conversation | undefined>;
  deleteConversation(id: string): Promise<boolean>;
  insertMessage(message: ChatMessage): Promise<void>;
  getMessage(id: string): Promise<ChatMessage | undefined>;
  /** Oldest first. */
  listMessages(conversationId: string): Promise<ChatMessage[]>;
  /** How many were deleted. */
  deleteMessages(ids: readonly string[]): Promise<number>;
  updateMessage(id: string, changes: MessageChanges): Promise<ChatMessage | undefined>;
}

/** The chat's presets and folders, and where a conversation is listed (pinned, in a folder). */
export interface ChatLibraryStore {
  /** By name. */
  listPresets(): Promise<ChatPreset[]>;
  getPreset(id: string): Promise<ChatPreset | undefined>;
  /** Adds it or replaces the one with its id (keeping its createdAt); a default one becomes the only default. */
  savePreset(preset: ChatPreset): Promise<void>;
  deletePreset(id: string): Promise<boolean>;
  /** By name. */
  listFolders(): Promise<ChatFolder[]>;
  getFolder(id: string): Promise<ChatFolder | undefined>;
  /** Adds it, or renames the folder with its id. */
  saveFolder(folder: ChatFolder): Promise<void>;
  /** Its conversations stay, out of any folder. */
  deleteFolder(id: string): Promise<boolean>;
  /** Pins or unpins it, moves it into a folder or out; its updatedAt stays. False: no such conversation. */
  placeConversation(id: string, place: ConversationPlace): Promise<boolean>;
}

/** Tool calls made through the MCP hub (main/mcp/hub), for the Activity screen. */
export interface McpCallStore {
  insert(row: McpCallRow): Promise<void>;
  /** Newest first. */
  recent(limit: number): Promise<McpCallRow[]>;
}

/** A browser's sign-in to the UI of a team server, with a management key (decision 017). Never its token. */
export interface UiSessionRow {
  id: string;
  keyId: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/**
 * UI sessions of a team server: every instance asks the database on each UI request, so a session signed in through
 * one instance works on all, and one revoked (or whose key was deleted) stops at once on all. Only the SHA-256 of a
 * session's token is stored.
 */
export interface UiSessionStore {
  create(session: UiSessionRow & { tokenHash: Buffer }): Promise<void>;
  /** The session of this token hash, revoked or expired ones included; undefined when there is none. */
  findByTokenHash(tokenHash: Buffer): Promise<UiSessionRow | undefined>;
  /** False when there is no such session or it was revoked already. */
  revoke(id: string, at: number): Promise<boolean>;
  /** Newest first. */
  list(): Promise<UiSessionRow[]>;
}

/** Which engine holds the data: shown by `/readyz` and in messages, never with credentials. */
export type StoreEngine = 'sqlite' | 'postgres';

export interface Store {
  readonly engine: StoreEngine;
  readonly chat: ChatStore;
  readonly chatLibrary: ChatLibraryStore;
  readonly mcpCalls: McpCallStore;
  /** The gateway's response cache (decision 031): every instance on the database shares it. */
  readonly responseCache: ResponseCacheStore;
  /** Team servers only: a UI behind a load balancer signs in with a management key (SQLite: the per-process link). */
  readonly uiSessions?: UiSessionStore;

  // --- The snapshot: synchronous, from memory or the local file. ---

  getKey(id: string): KeyRow | undefined;
  /** Oldest first. */
  listKeys(): KeyRow[];
  /** The key's rules; the defaults for a key without any (or an unknown id). */
  getKeyRules(id: string): KeyRulesRow;
  /** Rules of the keys that have some; the others have the defaults. */
  listKeyRules(): Map<string, KeyRulesRow>;
  /** Oldest first. */
  listProviders(): ProviderInfo[];
  getProvider(id: string): ProviderInfo | undefined;
  /** The user's price overrides, by model. */
  listPrices(): PriceRow[];
  /** By name. */
  listModelAliases(): ModelAliasInfo[];
  /** The targets cooled down or on trial (a healthy target has no row), by model. */
  listTargetHealth(): TargetHealthRow[];
  /** A setting kept with the app's data (its JSON text), undefined when it was never set. */
  getSetting(name: string): string | undefined;
  getCreditAccount(): CreditAccountRow;
  /** What the key spent in usage rows created on `fromDay` (days since 1970-01-01 UTC) or later. */
  keySpendSince(keyId: string, fromDay: number): number;
  /**
   * A number that differs from the previous call's whenever the snapshot may have changed since (through this
   * store or any other process or instance). Cheap enough to call per request. `fresh`: authentication asks for
   * the newest state the engine can vouch for, so a key deleted elsewhere fails on the very next request.
   */
  changeVersion(options?: { fresh?: boolean }): number;

  // --- Writes and everything outside the snapshot: asynchronous. ---

  /** Inserts the key, and its rules in the same transaction when given (else it has the defaults). */
  insertKey(row: NewKeyRow, rules?: KeyRulesRow): Promise<void>;
  /** False when no key has this id. */
  setKeyRules(id: string, rules: KeyRulesRow): Promise<boolean>;
  /** False when no key has this id. Once it resolves true, no instance authenticates the key any more. */
  deleteKey(id: string): Promise<boolean>;
  /** False when no key has this id. */
  renameKey(id: string, name: string): Promise<boolean>;
  /** The names deleted keys had, by id: their usage stays and is still shown under them. */
  deletedKeyNames(): Promise<Map<string, string>>;
  /** Records when keys were last used, in one transaction; a time older than the stored one is ignored. */
  touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void>;
  /** Adds the provider or updates it; an update keeps the original created_at. */
  upsertProvider(provider: ProviderInfo): Promise<void>;
  removeProvider(id: string): Promise<boolean>;
  /**
   * Writes the rows in one transaction; a row whose id is already stored is skipped. The same transaction adds
   * the inserted rows' cost to the credit account's used total and to each key's daily spend.
   */
  insertUsage(rows: readonly UsageRecord[]): Promise<void>;
  /**
   * True when `error`, thrown by a write of this store, is the database refusing the data itself (a constraint or
   * type check) rather than the write: a batch writer drops such a row instead of retrying it forever.
   */
  isRowRejection(error: unknown): boolean;
  getUsage(id: string): Promise<UsageRecord | undefined>;
  /** Newest first. */
  listUsage(query?: UsageQuery): Promise<UsageRecord[]>;
  /** Usage grouped by day (UTC), model, app or key; costs in whole nano-dollars. */
  usageSummary(query: UsageSummaryQuery): Promise<UsageSummaryGroup[]>;
  /** Changes the granted total and writes a ledger entry, in one transaction. */
  changeCredits(change: CreditChange): Promise<CreditAccountRow>;
  /** Oldest first. */
  listCreditLedger(): Promise<CreditLedgerRow[]>;
  setPrice(price: PriceRow): Promise<void>;
  removePrice(model: string): Promise<boolean>;
  /** Creates the alias or points it to `target` (one, or a group); returns what it was before, if it existed. */
  setModelAlias(name: string, target: string | AliasGroup, createdAt: number): Promise<ModelAliasInfo | undefined>;
  removeModelAlias(name: string): Promise<boolean>;
  /** Records a target's cooldown or trial; every process and instance learns it through changeVersion(). */
  setTargetHealth(row: TargetHealthRow): Promise<void>;
  /** The target is healthy again. False when it had no row. */
  removeTargetHealth(model: string): Promise<boolean>;
  /** Sets a setting (JSON text); every process and instance learns it through changeVersion(). */
  setSetting(name: string, value: string): Promise<void>;
  /**
   * Admits one request of a key with a requests-per-minute rule against a window shared by every instance: the
   * milliseconds to wait, 0 when admitted (and counted). Undefined when the engine has no shared window (SQLite:
   * the process's own limiter decides, decision 004).
   */
  admitRequest?(keyId: string, rpm: number, now: number): Promise<number>;
  /**
   * The key's usage rows created after `sinceMs`, as tokens (prompt + completion) by time, oldest first: the
   * tokens-per-minute window every instance shares. Undefined when the engine has none (SQLite: the process counts).
   */
  recentKeyTokens?(keyId: string, sinceMs: number): Promise<{ id: string; at: number; tokens: number }[]>;
  /** Whether the database answers and its schema is this build's (for `/readyz`). */
  readiness(): Promise<DatabaseReadiness>;
  close(): Promise<void>;
}
