// The embedded engine of the store (store-interface.ts): one SQLite file shared by every Switchyard process on the
// machine (the app, `serve`, the CLI). The work is synchronous and every write is a short transaction, so another
// process waits milliseconds at most (busy_timeout) instead of failing; the interface's asynchronous methods do it
// at once and resolve (an error becomes the promise's rejection).

import type { Database, Statement } from 'better-sqlite3';
import type { AliasGroup, ModelAliasInfo, ProviderInfo, UsageRecord } from '../../../shared/api/index.js';
import { promised } from './promised.js';
import type { KeyRow, KeyRulesRow, NewKeyRow } from '../contract/keys.js';
import type { PriceRow } from '../contract/prices.js';
import type { DatabaseReadiness } from '../contract/readiness.js';
import type { CreditAccountRow, CreditChange, CreditLedgerRow } from '../contract/spend.js';
import type { ChatLibraryStore, ChatStore, McpCallStore, Store } from '../contract/store-interface.js';
import type { UsageQuery, UsageSummaryGroup, UsageSummaryQuery } from '../contract/usage.js';
import { checkDatabaseReadiness } from './readiness.js';
import { isSqliteRowRejection } from './row-rejection.js';
import { asGroup } from '../contract/alias-columns.js';
import { AliasTable } from './alias-table.js';
import { KeyRulesTable } from './key-rules-table.js';
import { ChatLibraryTable } from './chat-library-table.js';
import { ChatTable } from './chat-table.js';
import { KeyTable } from './key-table.js';
import { McpCallTable } from './mcp-call-table.js';
import { ResponseCacheTable } from './response-cache-table.js';
import type { ResponseCacheStore } from '../contract/response-cache.js';
import { PriceTable } from './price-table.js';
import { ProviderTable } from './provider-table.js';
import { SettingsTable } from './settings-table.js';
import { TargetHealthTable } from './target-health-table.js';
import type { TargetHealthRow } from '../contract/target-health.js';
import { SpendTable } from './spend-table.js';
import { UsageTable } from './usage-table.js';

export interface StoreOptions {
  /**
   * `each-call` (the default): changeVersion() asks the file every time. `once-per-turn`: at most once per turn
   * of the event loop, for a gateway that would otherwise ask half a dozen times per request (keys, rules,
   * credits, aliases, providers, prices); changeVersion({ fresh: true }) still asks every time.
   */
  dataVersionReads?: 'each-call' | 'once-per-turn';
}

export class SqliteStore implements Store {
  readonly engine = 'sqlite';
  readonly chat: ChatStore;
  readonly chatLibrary: ChatLibraryStore;
  readonly mcpCalls: McpCallStore;
  readonly responseCache: ResponseCacheStore;
  private readonly db: Database;
  /** Where the file is, for readiness probes (their own read-only connection); undefined for a bare connection. */
  private readonly dataDir: string | undefined;
  private readonly keys: KeyTable;
  private readonly providers: ProviderTable;
  private readonly usage: UsageTable;
  private readonly keyRules: KeyRulesTable;
  private readonly spend: SpendTable;
  private readonly prices: PriceTable;
  private readonly aliases: AliasTable;
  private readonly targetHealth: TargetHealthTable;
  private readonly settings: SettingsTable;
  private readonly insertUsageAndSpend: (rows: readonly UsageRecord[]) => void;
  private readonly insertKeyWithRules: (row: NewKeyRow, rules: KeyRulesRow) => void;
  private readonly changeCreditsAtomically: (change: CreditChange) => CreditAccountRow;
  private readonly replaceAlias: (name: string, group: AliasGroup, createdAt: number) => ModelAliasInfo | undefined;
  private readonly dataVersionStatement: Statement<[], number>;
  private lastDataVersion: number;
  private version = 0;
  private readonly readOncePerTurn: boolean;
  /** True from a data_version read until the end of the event loop's turn (`once-per-turn` only). */
  private readInThisTurn = false;
  private readonly endTurn = () => {
    this.readInThisTurn = false;
  };

  /** Takes a connection that is already configured and migrated: use openStore(). */
  constructor(db: Database, options: StoreOptions & { dataDir?: string } = {}) {
    this.db = db;
    this.dataDir = options.dataDir;
    this.readOncePerTurn = options.dataVersionReads === 'once-per-turn';
    const chat = new ChatTable(db);
    this.chat = promised(chat, [
      'insertConversation',
      'getConversation',
      'listConversations',
      'updateConversation',
      'deleteConversation',
      'insertMessage',
      'getMessage',
      'listMessages',
      'deleteMessages',
      'updateMessage',
    ]);
    this.chatLibrary = promised(new ChatLibraryTable(db), [
      'listPresets',
      'getPreset',
      'savePreset',
      'deletePreset',
      'listFolders',
      'getFolder',
      'saveFolder',
      'deleteFolder',
      'placeConversation',
    ]);
    this.mcpCalls = promised(new McpCallTable(db), ['insert', 'recent']);
    this.responseCache = promised(new ResponseCacheTable(db), ['read', 'write']);
    this.keys = new KeyTable(db);
    this.providers = new ProviderTable(db);
    this.usage = new UsageTable(db);
    this.keyRules = new KeyRulesTable(db);
    this.spend = new SpendTable(db);
    this.prices = new PriceTable(db);
    this.aliases = new AliasTable(db);
    this.targetHealth = new TargetHealthTable(db);
    this.settings = new SettingsTable(db);
    // One transaction for the rows and the spend they add: a crash keeps both or neither.
    const insertUsageAndSpend = db.transaction((rows: readonly UsageRecord[]) => {
      this.spend.addUsage(this.usage.insertEach(rows));
    });
    this.insertUsageAndSpend = (rows) => insertUsageAndSpend.immediate(rows);
    const insertKeyWithRules = db.transaction((row: NewKeyRow, rules: KeyRulesRow) => {
      this.keys.insert(row);
      this.keyRules.set(row.id, rules);
    });
    this.insertKeyWithRules = (row, rules) => insertKeyWithRules.immediate(row, rules);
    const changeCredits = db.transaction((change: CreditChange) => this.spend.changeCredits(change));
    this.changeCreditsAtomically = (change) => changeCredits.immediate(change);
    // The previous target is read in the write's transaction, so "replaced" is true even when two processes race.
    const replaceAlias = db.transaction((name: string, group: AliasGroup, createdAt: number) => {
      const previous = this.aliases.get(name);
      this.aliases.set(name, group, createdAt);
      return previous;
    });
    this.replaceAlias = (name, group, createdAt) => replaceAlias.immediate(name, group, createdAt);
    this.dataVersionStatement = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.lastDataVersion = this.dataVersionStatement.get() ?? 0;
  }

  /** Inserts the key, and its rules in the same transaction when given (else it has the defaults). */
  async insertKey(row: NewKeyRow, rules?: KeyRulesRow): Promise<void> {
    if (rules) this.insertKeyWithRules(row, rules);
    else this.keys.insert(row);
    this.version++;
  }

  /** The key's rules; the defaults for a key without any (or an unknown id). */
  getKeyRules(id: string): KeyRulesRow {
    return this.keyRules.get(id);
  }

  /** Rules of the keys that have some; the others have the defaults. */
  listKeyRules(): Map<string, KeyRulesRow> {
    return this.keyRules.list();
  }

  /** False when no key has this id. */
  async setKeyRules(id: string, rules: KeyRulesRow): Promise<boolean> {
    if (!this.keys.get(id)) return false;
    this.keyRules.set(id, rules);
    this.version++;
    return true;
  }

  getKey(id: string): KeyRow | undefined {
    return this.keys.get(id);
  }

  /** Oldest first. */
  listKeys(): KeyRow[] {
    return this.keys.list();
  }

  async deleteKey(id: string): Promise<boolean> {
    return this.countChange(this.keys.delete(id));
  }

  /** The names deleted keys had, by id: their usage stays and is still shown under them. */
  async deletedKeyNames(): Promise<Map<string, string>> {
    return this.keys.deletedNames();
  }

  /** False when no key has this id. */
  async renameKey(id: string, name: string): Promise<boolean> {
    return this.countChange(this.keys.rename(id, name));
  }

  /** Records when keys were last used, in one transaction; a time older than the stored one is ignored. */
  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    this.keys.touch(lastUsed);
  }

  /** Oldest first. */
  listProviders(): ProviderInfo[] {
    return this.providers.list();
  }

  getProvider(id: string): ProviderInfo | undefined {
    return this.providers.get(id);
  }

  /** Adds the provider or updates it; an update keeps the original created_at. */
  async upsertProvider(provider: ProviderInfo): Promise<void> {
    this.providers.upsert(provider);
    this.version++;
  }

  async removeProvider(id: string): Promise<boolean> {
    return this.countChange(this.providers.remove(id));
  }

  /**
   * Writes the rows in one transaction; a row whose id is already stored is skipped. The same transaction adds
   * the inserted rows' cost to the credit account's used total and to each key's daily spend.
   */
  async insertUsage(rows: readonly UsageRecord[]): Promise<void> {
    if (rows.length > 0) this.insertUsageAndSpend(rows);
  }

  isRowRejection(error: unknown): boolean {
    return isSqliteRowRejection(error);
  }

  /** Usage grouped by day (UTC), model, app or key; costs in whole nano-dollars. */
  async usageSummary(query: UsageSummaryQuery): Promise<UsageSummaryGroup[]> {
    return this.usage.summary(query);
  }

  getCreditAccount(): CreditAccountRow {
    return this.spend.account();
  }

  /** Changes the granted total and writes a ledger entry, in one transaction. */
  async changeCredits(change: CreditChange): Promise<CreditAccountRow> {
    const account = this.changeCreditsAtomically(change);
    this.version++;
    return account;
  }

  /** Oldest first. */
  async listCreditLedger(): Promise<CreditLedgerRow[]> {
    return this.spend.ledger();
  }

  /** What the key spent in usage rows created on `fromDay` (days since 1970-01-01 UTC) or later. */
  keySpendSince(keyId: string, fromDay: number): number {
    return this.spend.keySpendSince(keyId, fromDay);
  }

  /** The user's price overrides, by model. */
  listPrices(): PriceRow[] {
    return this.prices.list();
  }

  async setPrice(price: PriceRow): Promise<void> {
    this.prices.set(price);
    this.version++;
  }

  async removePrice(model: string): Promise<boolean> {
    return this.countChange(this.prices.remove(model));
  }

  /** By name. */
  listModelAliases(): ModelAliasInfo[] {
    return this.aliases.list();
  }

  /** Creates the alias or points it to `target` (one, or a group); returns what it was before, if it existed. */
  async setModelAlias(
    name: string,
    target: string | AliasGroup,
    createdAt: number,
  ): Promise<ModelAliasInfo | undefined> {
    const previous = this.replaceAlias(name, asGroup(target), createdAt);
    this.version++;
    return previous;
  }

  listTargetHealth(): TargetHealthRow[] {
    return this.targetHealth.list();
  }

  async setTargetHealth(row: TargetHealthRow): Promise<void> {
    this.targetHealth.set(row);
    this.version++;
  }

  async removeTargetHealth(model: string): Promise<boolean> {
    return this.countChange(this.targetHealth.remove(model));
  }

  getSetting(name: string): string | undefined {
    return this.settings.get(name);
  }

  async setSetting(name: string, value: string): Promise<void> {
    this.settings.set(name, value);
    this.version++;
  }

  async removeModelAlias(name: string): Promise<boolean> {
    return this.countChange(this.aliases.remove(name));
  }

  async getUsage(id: string): Promise<UsageRecord | undefined> {
    return this.usage.get(id);
  }

  /** Newest first. */
  async listUsage(query: UsageQuery = {}): Promise<UsageRecord[]> {
    return this.usage.list(query);
  }

  /**
   * A number that differs from the previous call's whenever keys, key rules, providers, credits, prices or model aliases may
   * have changed since: through
   * this Store, or through any other connection to the file (another process included). Cheap enough to call
   * per request, so caches can check it instead of expiring on a timer.
   *
   * Usage inserts and touchKeys through this Store do not count: they are hot-path writes and must not empty
   * caches. Commits by other connections always count, whatever they changed, since data_version cannot tell.
   *
   * With `dataVersionReads: 'once-per-turn'`, a call reuses a read made earlier in the same turn of the event loop
   * (a commit by another process then shows from the next turn on) unless `fresh` is set: authentication asks
   * fresh, so a key deleted by another process fails on the very next request.
   */
  changeVersion(options?: { fresh?: boolean }): number {
    if (this.readOncePerTurn) {
      if (this.readInThisTurn && !options?.fresh) return this.version;
      if (!this.readInThisTurn) {
        this.readInThisTurn = true;
        setImmediate(this.endTurn).unref();
      }
    }
    const dataVersion = this.dataVersionStatement.get() ?? 0;
    if (dataVersion !== this.lastDataVersion) {
      this.lastDataVersion = dataVersion;
      this.version++;
    }
    return this.version;
  }

  async readiness(): Promise<DatabaseReadiness> {
    if (this.dataDir === undefined) throw new Error('this store was opened without its data folder');
    return checkDatabaseReadiness(this.dataDir);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private countChange(changed: boolean): boolean {
    if (changed) this.version++;
    return changed;
  }
}
