// SQL for the key_rules table: one optional row per API key. A key without a row has the defaults (everything
// allowed, management on), which is what keys created before rules existed get. Times are Unix milliseconds,
// money whole nano-dollars.

import type { Database, Statement } from 'better-sqlite3';
import type { LimitReset } from '../../shared/api/index.js';

export interface KeyRulesRow {
  limitNanos: number | null;
  limitReset: LimitReset;
  allowedModels: string[] | null;
  allowedProviders: string[] | null;
  management: boolean;
  expiresAt: number | null;
  disabled: boolean;
  rpm: number | null;
  tpm: number | null;
  /** MCP servers (`fs`) and tools (`fs__read_file`) the key may use through the hub, `*` for all; null = none. */
  allowedMcp: string[] | null;
}

export const defaultKeyRules: Readonly<KeyRulesRow> = Object.freeze({
  limitNanos: null,
  limitReset: 'never',
  allowedModels: null,
  allowedProviders: null,
  management: true,
  expiresAt: null,
  disabled: false,
  rpm: null,
  tpm: null,
  allowedMcp: null,
});

export interface KeyRulesColumns {
  key_id: string;
  limit_nanos: number | null;
  limit_reset: string;
  allowed_models: string | null;
  allowed_providers: string | null;
  management: number;
  expires_at: number | null;
  disabled: number;
  rpm: number | null;
  tpm: number | null;
  allowed_mcp: string | null;
}

const columns =
  'key_id, limit_nanos, limit_reset, allowed_models, allowed_providers, management, expires_at, disabled, rpm, tpm, ' +
  'allowed_mcp';

export class KeyRulesTable {
  private readonly getStatement: Statement<[string], KeyRulesColumns>;
  private readonly listStatement: Statement<[], KeyRulesColumns>;
  private readonly upsertStatement: Statement<[KeyRulesColumns]>;

  constructor(db: Database) {
    this.getStatement = db.prepare(`SELECT ${columns} FROM key_rules WHERE key_id = ?`);
    this.listStatement = db.prepare(`SELECT ${columns} FROM key_rules`);
    this.upsertStatement = db.prepare(
      `INSERT INTO key_rules (${columns}) VALUES (@key_id, @limit_nanos, @limit_reset, @allowed_models,
         @allowed_providers, @management, @expires_at, @disabled, @rpm, @tpm, @allowed_mcp)
       ON CONFLICT (key_id) DO UPDATE SET limit_nanos = excluded.limit_nanos, limit_reset = excluded.limit_reset,
         allowed_models = excluded.allowed_models, allowed_providers = excluded.allowed_providers,
         management = excluded.management, expires_at = excluded.expires_at, disabled = excluded.disabled,
         rpm = excluded.rpm, tpm = excluded.tpm, allowed_mcp = excluded.allowed_mcp`,
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

/** The row's columns (shared with postgres/key-table.ts). */
export function toKeyRulesColumns(keyId: string, rules: KeyRulesRow): KeyRulesColumns {
  return {
    key_id: keyId,
    limit_nanos: rules.limitNanos,
    limit_reset: rules.limitReset,
    allowed_models: rules.allowedModels && JSON.stringify(rules.allowedModels),
    allowed_providers: rules.allowedProviders && JSON.stringify(rules.allowedProviders),
    management: rules.management ? 1 : 0,
    expires_at: rules.expiresAt,
    disabled: rules.disabled ? 1 : 0,
    rpm: rules.rpm,
    tpm: rules.tpm,
    allowed_mcp: rules.allowedMcp && JSON.stringify(rules.allowedMcp),
  };
}

function toKeyRules(row: KeyRulesColumns): KeyRulesRow {
  return {
    limitNanos: row.limit_nanos,
    limitReset: row.limit_reset as LimitReset,
    allowedModels: parseList(row.allowed_models),
    allowedProviders: parseList(row.allowed_providers),
    management: row.management !== 0,
    expiresAt: row.expires_at,
    disabled: row.disabled !== 0,
    rpm: row.rpm,
    tpm: row.tpm,
    allowedMcp: parseList(row.allowed_mcp),
  };
}

// Written by toColumns only; a list that does not parse (edited by hand) allows nothing rather than everything.
function parseList(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}
