// SQL for the key_rules table: one optional row per API key. A key without a row has the defaults (everything
// allowed, management on), which is what keys created before rules existed get. Times are Unix milliseconds,
// money whole nano-dollars.

import type { Database, Statement } from 'better-sqlite3';
import { defaultKeyRules, toKeyRules, toKeyRulesColumns } from '../contract/keys.js';
import type { KeyRulesColumns, KeyRulesRow } from '../contract/keys.js';

const columns =
  'key_id, limit_nanos, limit_reset, allowed_models, allowed_providers, management, expires_at, disabled, rpm, tpm, ' +
  'allowed_mcp, metrics';

export class KeyRulesTable {
  private readonly getStatement: Statement<[string], KeyRulesColumns>;
  private readonly listStatement: Statement<[], KeyRulesColumns>;
  private readonly upsertStatement: Statement<[KeyRulesColumns]>;

  constructor(db: Database) {
    this.getStatement = db.prepare(`SELECT ${columns} FROM key_rules WHERE key_id = ?`);
    this.listStatement = db.prepare(`SELECT ${columns} FROM key_rules`);
    this.upsertStatement = db.prepare(
      `INSERT INTO key_rules (${columns}) VALUES (@key_id, @limit_nanos, @limit_reset, @allowed_models,
         @allowed_providers, @management, @expires_at, @disabled, @rpm, @tpm, @allowed_mcp, @metrics)
       ON CONFLICT (key_id) DO UPDATE SET limit_nanos = excluded.limit_nanos, limit_reset = excluded.limit_reset,
         allowed_models = excluded.allowed_models, allowed_providers = excluded.allowed_providers,
         management = excluded.management, expires_at = excluded.expires_at, disabled = excluded.disabled,
         rpm = excluded.rpm, tpm = excluded.tpm, allowed_mcp = excluded.allowed_mcp,
         metrics = excluded.metrics`,
    );
  }

  /** The key's rules; the defaults when it has no row. */
  get(keyId: string): KeyRulesRow {
    const row = this.getStatement.get(keyId);
    return row ? toKeyRules(row) : { ...defaultKeyRules };
  }

  /** The rules of every key that has a row. */
  list(): Map<string, KeyRulesRow> {
    return new Map(this.listStatement.all().map((row) => [row.key_id, toKeyRules(row)]));
  }

  /** Fails (foreign key) when no key has this id. */
  set(keyId: string, rules: KeyRulesRow): void {
    this.upsertStatement.run(toKeyRulesColumns(keyId, rules));
  }
}
