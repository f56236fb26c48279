// The schema history, oldest first. Never edit a migration that has shipped: add a new one.

import { responseCacheSchema } from './response-cache-table.js';
import type { Database } from 'better-sqlite3';
import type { MigrationStep } from '../contract/schema-version.js';
import { chatLibrarySchema } from './chat-library-table.js';
import { chatSchema } from './chat-table.js';
import { mcpCallsSchema } from './mcp-call-table.js';

/** Its version is stored in `PRAGMA user_version` once applied. */
export interface Migration extends MigrationStep {
  up(db: Database): void;
}

// STRICT tables make SQLite reject a value of the wrong type instead of storing it silently.
// usage_log.key_id has no foreign key on purpose: usage rows must outlive the key that made them.
const initialSchema = `
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    label TEXT NOT NULL,
    secret_hash BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER
  ) STRICT;

  CREATE TABLE providers (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    base_url TEXT NOT NULL,
    has_api_key INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE usage_log (
    id TEXT PRIMARY KEY NOT NULL,
    created_at INTEGER NOT NULL,
    key_id TEXT NOT NULL,
    app_title TEXT,
    app_referer TEXT,
    model TEXT NOT NULL,
    provider TEXT,
    streamed INTEGER NOT NULL,
    status INTEGER NOT NULL,
    finish_reason TEXT,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    cached_tokens INTEGER NOT NULL,
    reasoning_tokens INTEGER NOT NULL,
    cost REAL,
    latency_ms INTEGER NOT NULL,
    ttft_ms INTEGER,
    error TEXT
  ) STRICT;

  CREATE INDEX usage_log_created_at ON usage_log (created_at);
  -- (key_id, created_at) rather than key_id alone: per-key limits will ask "this key since T".
  CREATE INDEX usage_log_key_id_created_at ON usage_log (key_id, created_at);
  CREATE INDEX usage_log_model_created_at ON usage_log (model, created_at);
`;

// Money is whole nano-dollars (1e-9 USD) in INTEGER columns, so that sums reconcile exactly; prices are whole
// pico-dollars per token (1e-12 USD, the same number as micro-dollars per million tokens).
// credit_account.used_nanos and key_spend_daily are updated in the transaction that inserts usage rows, so
// "used = sum of usage_log.cost_nanos" holds by construction, also after a crash.
const creditsSchema = `
  CREATE TABLE key_rules (
    key_id TEXT PRIMARY KEY NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    limit_nanos INTEGER CHECK (limit_nanos >= 0),
    limit_reset TEXT NOT NULL CHECK (limit_reset IN ('never', 'daily', 'weekly', 'monthly')),
    allowed_models TEXT,
    allowed_providers TEXT,
    management INTEGER NOT NULL,
    expires_at INTEGER,
    disabled INTEGER NOT NULL,
    rpm INTEGER CHECK (rpm > 0),
    tpm INTEGER CHECK (tpm > 0)
  ) STRICT;

  ALTER TABLE usage_log ADD COLUMN cost_nanos INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE usage_log ADD COLUMN unpriced INTEGER NOT NULL DEFAULT 0;
  UPDATE usage_log SET cost_nanos = CAST(round(cost * 1000000000) AS INTEGER) WHERE cost IS NOT NULL;
  UPDATE usage_log SET unpriced = 1 WHERE cost IS NULL;

  CREATE TABLE credit_account (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    limited INTEGER NOT NULL,
    granted_nanos INTEGER NOT NULL,
    used_nanos INTEGER NOT NULL
  ) STRICT;
  INSERT INTO credit_account (id, limited, granted_nanos, used_nanos)
    SELECT 1, 0, 0, coalesce(sum(cost_nanos), 0) FROM usage_log;

  CREATE TABLE credit_ledger (
    id INTEGER PRIMARY KEY NOT NULL,
    created_at INTEGER NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('set', 'add', 'unset')),
    amount_nanos INTEGER NOT NULL,
    balance_nanos INTEGER
  ) STRICT;

  CREATE TABLE key_spend_daily (
    key_id TEXT NOT NULL,
    day INTEGER NOT NULL,
    cost_nanos INTEGER NOT NULL,
    PRIMARY KEY (key_id, day)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO key_spend_daily (key_id, day, cost_nanos)
    SELECT key_id, created_at / 86400000, sum(cost_nanos) FROM usage_log GROUP BY 1, 2;

  CREATE TABLE model_prices (
    model TEXT PRIMARY KEY NOT NULL,
    input_pico INTEGER NOT NULL CHECK (input_pico >= 0),
    output_pico INTEGER NOT NULL CHECK (output_pico >= 0),
    cache_read_pico INTEGER CHECK (cache_read_pico >= 0),
    cache_write_pico INTEGER CHECK (cache_write_pico >= 0),
    updated_at INTEGER NOT NULL
  ) STRICT;
`;

export const migrations: readonly Migration[] = [
  { version: 1, name: 'keys, providers and usage log', up: (db) => db.exec(initialSchema) },
  { version: 2, name: 'key rules, credits, exact costs and prices', up: (db) => db.exec(creditsSchema) },
  { version: 3, name: 'chat conversations and messages', up: (db) => db.exec(chatSchema) },
  {
    version: 4,
    name: 'provider key tails',
    // The last characters of a provider's key, so the UI can show which key is stored without reading the secret.
    // Rows written before have none: the UI says "stored" for them.
    up: (db) => db.exec('ALTER TABLE providers ADD COLUMN api_key_tail TEXT'),
  },
  {
    version: 5,
    name: 'provider timeouts',
    // A JSON object of ProviderTimeouts (seconds); NULL for a provider that keeps the defaults.
    up: (db) => db.exec('ALTER TABLE providers ADD COLUMN timeouts TEXT'),
  },
  {
    version: 6,
    name: 'estimated usage',
    // 1 when the token counts are an estimate (a stream cancelled before the upstream reported its usage).
    up: (db) => db.exec('ALTER TABLE usage_log ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0'),
  },
  {
    version: 7,
    name: 'model aliases',
    // A name a caller may send as `model` and the `<provider>/<model>` it stands for; never another alias.
    up: (db) =>
      db.exec(`
        CREATE TABLE model_aliases (
          name TEXT PRIMARY KEY NOT NULL,
          target TEXT NOT NULL CHECK (instr(target, '/') > 1),
          created_at INTEGER NOT NULL
        ) STRICT;
      `),
  },
  {
    version: 8,
    name: 'MCP hub access and calls',
    // allowed_mcp: a JSON list of the MCP servers and tools a key may use through the hub; NULL = none.
    up: (db) => db.exec(`ALTER TABLE key_rules ADD COLUMN allowed_mcp TEXT; ${mcpCallsSchema}`),
  },
  {
    version: 9,
    name: 'names of deleted keys',
    // Usage rows outlive their key; its name stays here so that breakdowns by key still name it.
    up: (db) =>
      db.exec(`
        CREATE TABLE deleted_api_keys (
          id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL,
          deleted_at INTEGER NOT NULL
        ) STRICT;
      `),
  },
  {
    version: 10,
    name: 'team server state',
    // Rate windows shared by instances, sealed secrets, UI sessions and the instances' change barrier exist only
    // on PostgreSQL (postgres/migrations.ts, decision 017): one process on one file needs none of them. The
    // version is kept in step so that one number means one schema on both engines.
    up: () => undefined,
  },
  {
    version: 11,
    name: 'dropped tools',
    // The tools a request named that its provider could not run (usage.ts's dropped_tools), comma-separated; NULL
    // when none were.
    up: (db) => db.exec('ALTER TABLE usage_log ADD COLUMN dropped_tools TEXT'),
  },
  {
    version: 12,
    name: 'chat settings and presets',
    // A conversation's settings beyond temperature, whether it is pinned and its folder; folders; presets.
    up: (db) => db.exec(chatLibrarySchema),
  },
  {
    version: 13,
    name: 'message versions',
    // A conversation becomes a tree (main/chat/conversation-tree.ts): parent_id is the message a message follows,
    // chosen_order which version of a branch is shown. A stored conversation is one line: each message follows the
    // one written before it.
    up: (db) =>
      db.exec(`
        ALTER TABLE messages ADD COLUMN parent_id TEXT;
        ALTER TABLE messages ADD COLUMN chosen_order INTEGER NOT NULL DEFAULT 0;
        UPDATE messages SET parent_id = line.previous
          FROM (SELECT id, lag(id) OVER (PARTITION BY conversation_id ORDER BY created_at, rowid) AS previous
                FROM messages) AS line
          WHERE messages.id = line.id;
      `),
  },
  {
    version: 14,
    name: 'model groups',
    // An alias may stand for several targets (decision 029): `targets` and `weights` are JSON arrays; NULL targets
    // mean the one `target` (every alias written before), which stays the first target for older readers.
    up: (db) =>
      db.exec(`
        ALTER TABLE model_aliases ADD COLUMN targets TEXT;
        ALTER TABLE model_aliases ADD COLUMN strategy TEXT NOT NULL DEFAULT 'ordered';
        ALTER TABLE model_aliases ADD COLUMN weights TEXT;
      `),
  },
  {
    version: 15,
    name: 'target health',
    // Each provider's cooldown settings (JSON, like timeouts; NULL: the defaults), and each cooled-down target's state,
    // shared by every process on the file (main/providers/target-health-sync.ts). A healthy target has no row.
    up: (db) =>
      db.exec(`
        ALTER TABLE providers ADD COLUMN cooldown TEXT;
        CREATE TABLE target_health (
          model TEXT PRIMARY KEY,
          provider TEXT NOT NULL,
          state TEXT NOT NULL,
          until INTEGER NOT NULL,
          next_cooldown_ms INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
      `),
  },
  {
    version: 16,
    name: 'response cache',
    // The gateway's cached answers (response-cache-table.ts), and on each usage row whether the cache answered
    // (usage.ts's cache) and what that answer saved (saved_cost, USD).
    up: (db) => db.exec(responseCacheSchema),
  },
  {
    version: 17,
    name: 'metrics right',
    // A key may read GET /metrics without the management right (key-rules.ts); off for every existing key.
    up: (db) => db.exec('ALTER TABLE key_rules ADD COLUMN metrics INTEGER NOT NULL DEFAULT 0'),
  },
  {
    version: 18,
    name: 'app settings',
    // Settings of the gateway kept with the app's data (settings-table.ts), each a JSON value by name: every process
    // on the file, and every instance of a team server, reads the same.
    up: (db) => db.exec('CREATE TABLE app_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)'),
  },
];
