// The schema history, oldest first. Never edit a migration that has shipped: add a new one.

import type { Database } from 'better-sqlite3';

export interface Migration {
  /** 1, 2, 3…: stored in `PRAGMA user_version` once applied. */
  version: number;
  name: string;
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

export const migrations: readonly Migration[] = [
  { version: 1, name: 'keys, providers and usage log', up: (db) => db.exec(initialSchema) },
];
