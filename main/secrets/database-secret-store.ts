// Provider keys (and MCP sign-ins) of a team server, in its PostgreSQL database (decision 017): one row per entry
// in `sealed_secrets`, the value sealed with SWITCHYARD_SECRET_KEY for that entry's name, so the database never
// holds a secret in clear and a value copied onto another row does not open. Every instance reads the same rows;
// opened values stay in memory until invalidate() (another instance changed them: its notification says so).
//
// openDatabaseSecrets checks the key at start: missing or malformed, or not the key the stored values were sealed
// with, the instance stops with a message naming variables and key ids, never a key or a value.

import type pg from 'pg';
import { sealedKeyId, secretKeyVariable } from './secret-cipher.js';
import { CachedSecretStore } from './secret-cache.js';
import { previousSecretKeyVariable, SecretKeyring } from './secret-keyring.js';

/** A pool, or one of its clients inside a transaction. */
export type SqlClient = pg.Pool | pg.ClientBase;

interface SealedRow {
  name: string;
  sealed: string;
}

export class DatabaseSecretStore extends CachedSecretStore {
  readonly kind = 'database';
  readonly location: string;
  readonly #database: SqlClient;
  readonly #keyring: SecretKeyring;
  readonly #now: () => number;

  constructor(database: SqlClient, keyring: SecretKeyring, now: () => number = Date.now) {
    super();
    this.#database = database;
    this.#keyring = keyring;
    this.#now = now;
    this.location = `the database, encrypted with ${secretKeyVariable} (key id ${keyring.current.keyId})`;
  }

  protected async load(account: string): Promise<string | null> {
    const { rows } = await this.#database.query<SealedRow>('SELECT name, sealed FROM sealed_secrets WHERE name = $1', [
      account,
    ]);
    const row = rows[0];
    return row ? this.#keyring.open(row.sealed, row.name) : null;
  }

  protected async save(account: string, secret: string): Promise<void> {
    await this.#database.query(
      `INSERT INTO sealed_secrets (name, sealed, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`,
      [account, this.#keyring.seal(secret, account), this.#now()],
    );
  }

  protected async remove(account: string): Promise<boolean> {
    const { rowCount } = await this.#database.query('DELETE FROM sealed_secrets WHERE name = $1', [account]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * At start: every stored value must be sealed under a key this instance holds, and one of them must open, so a
   * wrong key stops the instance now rather than failing each provider's first request.
   */
  async check(): Promise<void> {
    const { rows } = await this.#database.query<SealedRow>('SELECT name, sealed FROM sealed_secrets ORDER BY name');
    const unreadable: string[] = [];
    const foreign = new Map<string, string[]>();
    for (const row of rows) {
      const keyId = sealedKeyId(row.sealed);
      if (keyId === undefined) unreadable.push(row.name);
      else if (!this.#keyring.holds(keyId)) foreign.set(keyId, [...(foreign.get(keyId) ?? []), row.name]);
    }
    if (unreadable.length > 0) {
      throw new Error(
        `Stored secrets are not encrypted values: ${unreadable.join(', ')}. Enter them again; one that was ` +
          'stored in clear should also be replaced at its provider.',
      );
    }
    if (foreign.size > 0) {
      const held = [...foreign].map(([keyId, names]) => `key id ${keyId} (${names.join(', ')})`).join('; ');
      throw new Error(
        `Stored secrets were encrypted with another key: ${held}; ${this.#keyring.describe()}. Start with the key ` +
          `they were encrypted with; while rotating to a new one, set the old one as ${previousSecretKeyVariable}.`,
      );
    }
    const first = rows[0];
    if (!first) return;
    try {
      this.remember(first.name, this.#keyring.open(first.sealed, first.name));
    } catch (error) {
      throw new Error(`The stored secret "${first.name}" does not open: ${(error as Error).message}`, { cause: error });
    }
  }
}

/**
 * The secret store of an instance in PostgreSQL mode, its key checked against what the database holds.
 * @throws {SecretKeyError} when SWITCHYARD_SECRET_KEY (or SWITCHYARD_SECRET_KEY_PREVIOUS) is missing or malformed.
 */
export async function openDatabaseSecrets(
  database: SqlClient,
  env: Record<string, string | undefined> = process.env,
): Promise<DatabaseSecretStore> {
  const store = new DatabaseSecretStore(database, SecretKeyring.fromEnv(env));
  await store.check();
  return store;
}
