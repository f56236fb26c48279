// The app's database: one SQLite file shared by every Switchyard process on the machine (the app, `serve`,
// the CLI). All methods are synchronous and every write is a short transaction, so another process waits
// milliseconds at most (busy_timeout) instead of failing.

import type { Database, Statement } from 'better-sqlite3';
import type { ProviderInfo, UsageRecord } from '../../shared/api/index.js';
import { KeyTable, type KeyRow, type NewKeyRow } from './key-table.js';
import { ProviderTable } from './provider-table.js';
import { UsageTable, type UsageQuery } from './usage-table.js';

export class Store {
  private readonly db: Database;
  private readonly keys: KeyTable;
  private readonly providers: ProviderTable;
  private readonly usage: UsageTable;
  private readonly dataVersionStatement: Statement<[], number>;
  private lastDataVersion: number;
  private version = 0;

  /** Takes a connection that is already configured and migrated: use openStore(). */
  constructor(db: Database) {
    this.db = db;
    this.keys = new KeyTable(db);
    this.providers = new ProviderTable(db);
    this.usage = new UsageTable(db);
    this.dataVersionStatement = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.lastDataVersion = this.dataVersionStatement.get() ?? 0;
  }

  insertKey(row: NewKeyRow): void {
    this.keys.insert(row);
    this.version++;
  }

  getKey(id: string): KeyRow | undefined {
    return this.keys.get(id);
  }

  /** Oldest first. */
  listKeys(): KeyRow[] {
    return this.keys.list();
  }

  deleteKey(id: string): boolean {
    return this.countChange(this.keys.delete(id));
  }

  /** Records when keys were last used, in one transaction; a time older than the stored one is ignored. */
  touchKeys(lastUsed: ReadonlyMap<string, number>): void {
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
  upsertProvider(provider: ProviderInfo): void {
    this.providers.upsert(provider);
    this.version++;
  }

  removeProvider(id: string): boolean {
    return this.countChange(this.providers.remove(id));
  }

  /** Writes the rows in one transaction; a row whose id is already stored is skipped. */
  insertUsage(rows: readonly UsageRecord[]): void {
    this.usage.insert(rows);
  }

  getUsage(id: string): UsageRecord | undefined {
    return this.usage.get(id);
  }

  /** Newest first. */
  listUsage(query: UsageQuery = {}): UsageRecord[] {
    return this.usage.list(query);
  }

  /**
   * A number that differs from the previous call's whenever keys or providers may have changed since: through
   * this Store, or through any other connection to the file (another process included). Cheap enough to call
   * per request, so caches can check it instead of expiring on a timer.
   *
   * Usage inserts and touchKeys through this Store do not count: they are hot-path writes and must not empty
   * caches. Commits by other connections always count, whatever they changed, since data_version cannot tell.
   */
  changeVersion(): number {
    const dataVersion = this.dataVersionStatement.get() ?? 0;
    if (dataVersion !== this.lastDataVersion) {
      this.lastDataVersion = dataVersion;
      this.version++;
    }
    return this.version;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private countChange(changed: boolean): boolean {
    if (changed) this.version++;
    return changed;
  }
}
