// The snapshot of a PostgreSQL instance (decision 017): the tables the gateway's hot path reads, copied into an
// in-memory SQLite database migrated like the data folder's file, and read through the same table classes. So both
// engines share one read path and one set of row mappers, and a read costs what it costs on SQLite today.
//
// The copy is made of whole tables, or of a key's rows, exactly as PostgreSQL holds them (the schemas are the same,
// held equal by the parity test in migrate.test.ts); only booleans become SQLite's 0 and 1, and PostgreSQL's
// insert_order becomes the rowid that SQLite's lists break ties of time with.

import Database from 'better-sqlite3';
import type pg from 'pg';
import { AliasTable } from '../sqlite/alias-table.js';
import { KeyRulesTable } from '../sqlite/key-rules-table.js';
import { KeyTable } from '../sqlite/key-table.js';
import { migrate } from '../sqlite/migrate.js';
import { PriceTable } from '../sqlite/price-table.js';
import { ProviderTable } from '../sqlite/provider-table.js';
import { SettingsTable } from '../sqlite/settings-table.js';
import { SpendTable } from '../sqlite/spend-table.js';
import { TargetHealthTable } from '../sqlite/target-health-table.js';
import { insertOrderColumn, insertOrderTables } from './migrations.js';

/** The tables of the snapshot, and the column that names a row of each for a reload of one key's rows. */
export const snapshotTables = {
  api_keys: 'id',
  key_rules: 'key_id',
  providers: 'id',
  model_prices: 'model',
  model_aliases: 'name',
  credit_account: 'id',
  key_spend_daily: 'key_id',
  target_health: 'model',
  app_settings: 'name',
} as const;

export type SnapshotTable = keyof typeof snapshotTables;

/** What one change touched: a table, or the rows of one id in it (`api_keys` and `k_1`). */
export interface Scope {
  table: SnapshotTable;
  id?: string;
}

/** Rows read from PostgreSQL, by table, ready to replace the same scope in the replica. */
type Rows = Map<SnapshotTable, Record<string, unknown>[]>;

/** The spend totals a usage batch left behind: absolute, so applying them twice or late changes nothing. */
export interface SpendTotals {
  usedNanos: number;
  /** [key id, day, that day's total]. */
  days: [string, number, number][];
}

export function isSnapshotTable(name: string): name is SnapshotTable {
  return Object.hasOwn(snapshotTables, name);
}

/** A key's rules go with the key: deleting it in PostgreSQL cascades, so reloading it reloads them. */
function tablesOf(scope: Scope): SnapshotTable[] {
  return scope.table === 'api_keys' ? ['api_keys', 'key_rules'] : [scope.table];
}

export class SnapshotReplica {
  readonly keys: KeyTable;
  readonly keyRules: KeyRulesTable;
  readonly providers: ProviderTable;
  readonly prices: PriceTable;
  readonly aliases: AliasTable;
  readonly spend: SpendTable;
  readonly targetHealth: TargetHealthTable;
  readonly settings: SettingsTable;
  private readonly db: Database.Database;
  private readonly columns = new Map<SnapshotTable, string[]>();
  private readonly raiseUsed: Database.Statement<[number]>;
  private readonly raiseDay: Database.Statement<[string, number, number]>;

  constructor() {
    this.db = new Database(':memory:');
    // PostgreSQL enforces the references; the replica copies tables one at a time and must accept any order.
    this.db.pragma('foreign_keys = OFF');
    migrate(this.db);
    this.keys = new KeyTable(this.db);
    this.keyRules = new KeyRulesTable(this.db);
    this.providers = new ProviderTable(this.db);
    this.prices = new PriceTable(this.db);
    this.aliases = new AliasTable(this.db);
    this.spend = new SpendTable(this.db);
    this.targetHealth = new TargetHealthTable(this.db);
    this.settings = new SettingsTable(this.db);
    for (const table of Object.keys(snapshotTables) as SnapshotTable[]) {
      const info = this.db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
      this.columns.set(
        table,
        info.map((column) => column.name),
      );
    }
    // Totals only grow (costs are never negative), so the larger of two is the newer.
    this.raiseUsed = this.db.prepare('UPDATE credit_account SET used_nanos = max(used_nanos, ?) WHERE id = 1');
    this.raiseDay = this.db.prepare(
      `INSERT INTO key_spend_daily (key_id, day, cost_nanos) VALUES (?, ?, ?)
       ON CONFLICT (key_id, day) DO UPDATE SET cost_nanos = max(cost_nanos, excluded.cost_nanos)`,
    );
  }

  /** Reads every snapshot table from PostgreSQL (call inside one transaction, for one consistent state). */
  async readAll(client: pg.ClientBase): Promise<Rows> {
    const rows: Rows = new Map();
    for (const table of Object.keys(snapshotTables) as SnapshotTable[]) {
      rows.set(table, await this.read(client, { table }));
    }
    return rows;
  }

  /** Reads what one change touched. */
  async readScope(client: pg.ClientBase | pg.Pool, scope: Scope): Promise<Rows> {
    const rows: Rows = new Map();
    for (const table of tablesOf(scope)) rows.set(table, await this.read(client, { table, id: scope.id }));
    return rows;
  }

  /** Replaces everything with what readAll() read, in one transaction. */
  replaceAll(rows: Rows): void {
    this.db.transaction(() => {
      for (const [table, tableRows] of rows) this.replace({ table }, tableRows);
    })();
  }

  /** Replaces the scope's rows with what readScope() read, in one transaction. */
  replaceScope(scope: Scope, rows: Rows): void {
    this.db.transaction(() => {
      for (const [table, tableRows] of rows) this.replace({ table, id: scope.id }, tableRows);
    })();
  }

  applySpendTotals(totals: SpendTotals): void {
    this.db.transaction(() => {
      this.raiseUsed.run(totals.usedNanos);
      for (const [keyId, day, nanos] of totals.days) this.raiseDay.run(keyId, day, nanos);
    })();
  }

  close(): void {
    this.db.close();
  }

  private async read(client: pg.ClientBase | pg.Pool, scope: Scope): Promise<Record<string, unknown>[]> {
    const columns = [
      ...this.columns.get(scope.table)!,
      ...(hasInsertOrder(scope.table) ? [insertOrderColumn] : []),
    ].join(', ');
    const { rows } =
      scope.id === undefined
        ? await client.query<Record<string, unknown>>(`SELECT ${columns} FROM ${scope.table}`)
        : await client.query<Record<string, unknown>>(
            `SELECT ${columns} FROM ${scope.table} WHERE ${snapshotTables[scope.table]} = $1`,
            [scope.id],
          );
    return rows;
  }

  private replace(scope: Scope, rows: Record<string, unknown>[]): void {
    const columns = [...this.columns.get(scope.table)!];
    if (hasInsertOrder(scope.table)) columns.push(insertOrderColumn);
    if (scope.id === undefined) this.db.prepare(`DELETE FROM ${scope.table}`).run();
    else this.db.prepare(`DELETE FROM ${scope.table} WHERE ${snapshotTables[scope.table]} = ?`).run(scope.id);
    if (rows.length === 0) return;
    const insert = this.db.prepare(
      `INSERT INTO ${scope.table} (${columns.map((column) => (column === insertOrderColumn ? 'rowid' : column)).join(', ')})
       VALUES (${columns.map(() => '?').join(', ')})`,
    );
    for (const row of rows) insert.run(columns.map((column) => sqliteValue(row[column])));
  }
}

function sqliteValue(value: unknown): unknown {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

function hasInsertOrder(table: SnapshotTable): boolean {
  return (insertOrderTables as readonly string[]).includes(table);
}
