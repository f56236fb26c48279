// The store on PostgreSQL, shared by any number of `switchyard serve` instances (decision 017).
//
// - The snapshot (keys and rules, providers, prices, aliases, credits, daily spend) is a copy in memory, read
// - The snapshot (keys and rules, providers, prices, aliases, credits, daily spend) is a copy in memory, read
//   synchronously (replica.ts), loaded at start and kept current by notifications (snapshot-sync.ts).
// - Writes of the snapshot go through SnapshotSync.change: one transaction that announces itself to every instance.

import type pg from 'pg';
import type { AliasGroup, ModelAliasInfo, ProviderInfo, UsageRecord } from '../../../shared/api/index.js';
import type { KeyRow, KeyRulesRow, NewKeyRow } from '../contract/keys.js';
import type { PriceRow } from '../contract/prices.js';
import { migrationState, type DatabaseReadiness } from '../contract/readiness.js';
import { latestVersion, StoreVersionError } from '../contract/schema-version.js';
import type { CreditAccountRow, CreditChange, CreditLedgerRow } from '../contract/spend.js';
import type { ChatLibraryStore, ChatStore, McpCallStore, Store, UiSessionStore } from '../contract/store-interface.js';
import type { UsageQuery, UsageSummaryGroup, UsageSummaryQuery } from '../contract/usage.js';
import { asGroup } from '../contract/alias-columns.js';
import * as aliasTable from './alias-table.js';
import { PostgresChatLibraryTable } from './chat-library-table.js';
import { PostgresChatTable } from './chat-table.js';
import * as keyTable from './key-table.js';
import { PostgresMcpCallTable } from './mcp-call-table.js';
import { PostgresResponseCacheTable } from './response-cache-table.js';
import type { ResponseCacheStore } from '../contract/response-cache.js';
import { migratePostgres, postgresSchemaVersion } from './migrate.js';
import { postgresMigrations } from './migrations.js';
import { createPool, withoutSecret } from './pool.js';
import * as priceTable from './price-table.js';
import * as providerTable from './provider-table.js';
import * as settingsTable from './settings-table.js';
import * as targetHealthTable from './target-health-table.js';
import type { TargetHealthRow } from '../contract/target-health.js';
import { admitRequest } from './rate-window.js';
import { isPostgresRowRejection } from './row-rejection.js';
import { SnapshotSync } from './snapshot-sync.js';
import * as spendTable from './spend-table.js';
import { PostgresUiSessionTable } from './ui-session-table.js';
import * as usageTable from './usage-table.js';

export { leaseMs } from './snapshot-sync.js';

export interface PostgresStoreOptions {
  /**
   * True for a process that serves requests (`switchyard serve`): it registers in `instances`, renews a lease every
   * second, and writes that revoke wait until it applied them. Commands that only read or write once do not.
   */
  instance?: boolean;
  /** Connections in the pool (10 by default). */
  poolSize?: number;
  /** The first delay before the listener reconnects after a loss (doubling up to 5 s); 100 ms by default. */
  reconnectDelayMs?: number;
}

export class PostgresStore implements Store {
  readonly engine = 'postgres';
  readonly chat: ChatStore;
  readonly chatLibrary: ChatLibraryStore;
  readonly mcpCalls: McpCallStore;
  readonly responseCache: ResponseCacheStore;
  readonly uiSessions: UiSessionStore;
  private readonly pool: pg.Pool;
  private readonly sync: SnapshotSync;

  private constructor(url: string, pool: pg.Pool, options: PostgresStoreOptions) {
    this.pool = pool;
    this.chat = new PostgresChatTable(pool);
    this.chatLibrary = new PostgresChatLibraryTable(pool);
    this.mcpCalls = new PostgresMcpCallTable(pool);
    this.responseCache = new PostgresResponseCacheTable(pool);
    this.uiSessions = new PostgresUiSessionTable(pool);
    this.sync = new SnapshotSync(url, pool, {
      instance: options.instance ?? false,
      reconnectDelayMs: options.reconnectDelayMs,
    });
  }

  /** Connects, migrates, LISTENs, then loads the snapshot (so that no change is missed between the two). */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const pool = createPool(url, options.poolSize);
    // An idle connection that fails is replaced by the pool; without a listener its error would end the process.
    pool.on('error', () => undefined);
    const store = new PostgresStore(url, pool, options);
    try {
      try {
        await migratePostgres(pool);
      } catch (error) {
        if (error instanceof StoreVersionError) throw error;
        throw withoutSecret(error, url, 'could not open the PostgreSQL database');
      }
      await store.sync.start();
      return store;
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  // --- The snapshot ---

  getKey(id: string): KeyRow | undefined {
    return this.sync.replica.keys.get(id);
  }

  listKeys(): KeyRow[] {
    return this.sync.replica.keys.list();
  }

  getKeyRules(id: string): KeyRulesRow {
    return this.sync.replica.keyRules.get(id);
  }

  listKeyRules(): Map<string, KeyRulesRow> {
    return this.sync.replica.keyRules.list();
  }

  listProviders(): ProviderInfo[] {
    return this.sync.replica.providers.list();
  }

  getProvider(id: string): ProviderInfo | undefined {
    return this.sync.replica.providers.get(id);
  }

  listPrices(): PriceRow[] {
    return this.sync.replica.prices.list();
  }

  listTargetHealth(): TargetHealthRow[] {
    return this.sync.replica.targetHealth.list();
  }

  getSetting(name: string): string | undefined {
    return this.sync.replica.settings.get(name);
  }

  listModelAliases(): ModelAliasInfo[] {
    return this.sync.replica.aliases.list();
  }

  getCreditAccount(): CreditAccountRow {
    return this.sync.replica.spend.account();
  }

  keySpendSince(keyId: string, fromDay: number): number {
    return this.sync.replica.spend.keySpendSince(keyId, fromDay);
  }

  changeVersion(options?: { fresh?: boolean }): number {
    return this.sync.changeVersion(options);
  }

  // --- Writes of the snapshot ---

  async insertKey(row: NewKeyRow, rules?: KeyRulesRow): Promise<void> {
    // The barrier: the secret is shown only once every instance accepts the key.
    await this.sync.change(
      { table: 'api_keys', id: row.id },
      async (client) => {
        await keyTable.insertKey(client, row);
        if (rules) await keyTable.setKeyRules(client, row.id, rules);
      },
      { barrier: true },
    );
  }

  setKeyRules(id: string, rules: KeyRulesRow): Promise<boolean> {
    return this.sync.change({ table: 'key_rules', id }, (client) => keyTable.setKeyRules(client, id, rules), {
      barrier: true,
      changed: (done) => done,
    });
  }

  deleteKey(id: string): Promise<boolean> {
    return this.sync.change({ table: 'api_keys', id }, (client) => keyTable.deleteKey(client, id, Date.now()), {
      barrier: true,
      changed: (deleted) => deleted,
    });
  }

  renameKey(id: string, name: string): Promise<boolean> {
    return this.sync.change({ table: 'api_keys', id }, (client) => keyTable.renameKey(client, id, name), {
      barrier: true,
      changed: (renamed) => renamed,
    });
  }

  deletedKeyNames(): Promise<Map<string, string>> {
    return keyTable.deletedKeyNames(this.pool);
  }

  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    if (lastUsed.size === 0) return;
    await keyTable.touchKeys(this.pool, lastUsed);
    // Hot-path bookkeeping: other instances update their copy when told, without emptying any cache.
    await this.sync.touchKeys(lastUsed);
  }

  async upsertProvider(provider: ProviderInfo): Promise<void> {
    await this.sync.change({ table: 'providers', id: provider.id }, (client) =>
      providerTable.upsertProvider(client, provider),
    );
  }

  removeProvider(id: string): Promise<boolean> {
    return this.sync.change({ table: 'providers', id }, (client) => providerTable.removeProvider(client, id), {
      changed: (removed) => removed,
    });
  }

  async setPrice(price: PriceRow): Promise<void> {
    await this.sync.change({ table: 'model_prices', id: price.model }, (client) => priceTable.setPrice(client, price));
  }

  async setTargetHealth(row: TargetHealthRow): Promise<void> {
    await this.sync.change({ table: 'target_health', id: row.model }, (client) =>
      targetHealthTable.setTargetHealth(client, row),
    );
  }

  async setSetting(name: string, value: string): Promise<void> {
    await this.sync.change({ table: 'app_settings', id: name }, (client) =>
      settingsTable.setSetting(client, name, value),
    );
  }

  removeTargetHealth(model: string): Promise<boolean> {
    const remove = (client: pg.ClientBase) => targetHealthTable.removeTargetHealth(client, model);
    return this.sync.change({ table: 'target_health', id: model }, remove, { changed: (removed) => removed });
  }

  removePrice(model: string): Promise<boolean> {
    return this.sync.change({ table: 'model_prices', id: model }, (client) => priceTable.removePrice(client, model), {
      changed: (removed) => removed,
    });
  }

  setModelAlias(name: string, target: string | AliasGroup, createdAt: number): Promise<ModelAliasInfo | undefined> {
    return this.sync.change({ table: 'model_aliases', id: name }, (client) =>
      aliasTable.setModelAlias(client, name, asGroup(target), createdAt),
    );
  }

  removeModelAlias(name: string): Promise<boolean> {
    return this.sync.change(
      { table: 'model_aliases', id: name },
      (client) => aliasTable.removeModelAlias(client, name),
      {
        changed: (removed) => removed,
      },
    );
  }

  changeCredits(change: CreditChange): Promise<CreditAccountRow> {
    // Through the barrier too: after `credits set 0` answers, no instance admits on the old balance.
    return this.sync.change({ table: 'credit_account' }, (client) => spendTable.changeCredits(client, change), {
      barrier: true,
    });
  }

  // --- Usage, ledger, rate windows ---

  async insertUsage(rows: readonly UsageRecord[]): Promise<void> {
    if (rows.length === 0) return;
    const totals = await this.sync.transaction(async (client) => {
      const spent = await usageTable.insertUsage(client, rows);
      const totals = await spendTable.addUsage(client, spent);
      if (totals) await this.sync.notify(client, { topic: 'key_spend_daily', origin: this.sync.id, spend: totals });
      return totals;
    });
    // This process counted its rows when it recorded them (SpendTracker): the copy catches up, no cache empties.
    if (totals) this.sync.replica.applySpendTotals(totals);
  }

  isRowRejection(error: unknown): boolean {
    return isPostgresRowRejection(error);
  }

  getUsage(id: string): Promise<UsageRecord | undefined> {
    return usageTable.getUsage(this.pool, id);
  }

  listUsage(query: UsageQuery = {}): Promise<UsageRecord[]> {
    return usageTable.listUsage(this.pool, query);
  }

  usageSummary(query: UsageSummaryQuery): Promise<UsageSummaryGroup[]> {
    return usageTable.usageSummary(this.pool, query);
  }

  listCreditLedger(): Promise<CreditLedgerRow[]> {
    return spendTable.creditLedger(this.pool);
  }

  admitRequest(keyId: string, rpm: number, now: number): Promise<number> {
    return admitRequest(this.pool, keyId, rpm, now);
  }

  recentKeyTokens(keyId: string, sinceMs: number): Promise<{ id: string; at: number; tokens: number }[]> {
    return usageTable.recentKeyTokens(this.pool, keyId, sinceMs);
  }

  // --- Health and lifetime ---

  async readiness(): Promise<DatabaseReadiness> {
    const listener = this.sync.vouched() ? 'listening' : 'resyncing';
    let version: number;
    try {
      version = await postgresSchemaVersion(this.pool);
    } catch {
      return { ready: false, checks: { database: 'unreachable', migrations: 'unknown', listener } };
    }
    const migrations = migrationState(version, latestVersion(postgresMigrations));
    return {
      ready: migrations === 'current' && listener === 'listening',
      checks: { database: 'reachable', migrations, listener },
    };
  }

  /** The pool, for what lives beside the store in the same database (the sealed provider secrets). */
  sqlClient(): pg.Pool {
    return this.pool;
  }

  /** The listening connection's server process id (tests cut it with pg_terminate_backend). */
  listenerBackendPid(): number | undefined {
    return this.sync.listenerBackendPid();
  }

  async close(): Promise<void> {
    if (this.sync.isClosed) return;
    await this.sync.stop();
    await this.pool.end();
    this.sync.replica.close();
  }
}

/** Opens (and creates or upgrades) the store on the PostgreSQL database at `url`. */
export function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  return PostgresStore.open(url, options);
}
