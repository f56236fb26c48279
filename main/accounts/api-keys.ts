// Gateway API keys: creation, listing, deletion, and authentication on every request.

import { ApiError, type ApiKeyInfo, type CreatedApiKey } from '../../shared/api/index.js';
import type { KeyRow, Store } from '../store/index.js';
import { generateKeySecret, hashKeySecret, keyIdOf, secretMatchesHash } from './key-secret.js';

export type KeyStore = Pick<Store, 'insertKey' | 'getKey' | 'listKeys' | 'deleteKey' | 'touchKeys' | 'changeVersion'>;

export interface ApiKeysOptions {
  /** How often start()'s timer writes last-used times. */
  flushIntervalMs?: number;
  /** Receives failures of the timer's writes (the times stay queued and are retried). */
  onError?: (error: unknown) => void;
}

const maxNameLength = 100;

export class ApiKeys {
  private readonly store: KeyStore;
  private readonly flushIntervalMs: number;
  private readonly onError: (error: unknown) => void;
  /** Rows by id, valid while store.changeVersion() stays at cacheVersion. */
  private readonly cache = new Map<string, KeyRow>();
  private cacheVersion: number | undefined;
  /** Last-used times not yet written: a DB write per request would put the disk on the hot path. */
  private readonly lastUsed = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(store: KeyStore, options: ApiKeysOptions = {}) {
    this.store = store;
    this.flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.onError =
      options.onError ?? ((error) => console.error('switchyard: could not save key last-used times', error));
  }

  /** Throws ApiError(400) for an empty, too long or multi-line name. */
  create(name: string): CreatedApiKey {
    const validName = validateName(name);
    const { id, secret, label } = generateKeySecret();
    const row = { id, name: validName, label, secretHash: hashKeySecret(secret), createdAt: Date.now() };
    this.store.insertKey(row);
    return { ...this.toInfo({ ...row, lastUsedAt: null }), key: secret };
  }

  /** Oldest first. */
  list(): ApiKeyInfo[] {
    return this.store.listKeys().map((row) => this.toInfo(row));
  }

  get(id: string): ApiKeyInfo | undefined {
    const row = this.store.getKey(id);
    return row && this.toInfo(row);
  }

  /** False when no key has this id. Once it returns true, authenticate() rejects the key. */
  delete(id: string): boolean {
    this.cache.delete(id);
    this.lastUsed.delete(id);
    return this.store.deleteKey(id);
  }

  /** The key whose secret this is, or null (unknown, deleted, wrong or malformed secret). Never throws on input. */
  authenticate(secret: string): ApiKeyInfo | null {
    const id = keyIdOf(secret);
    if (id === null) return null;
    const row = this.findRow(id);
    if (!row || !secretMatchesHash(secret, row.secretHash)) return null;
    this.lastUsed.set(id, Date.now());
    return this.toInfo(row);
  }

  /** Writes the queued last-used times. Throws when the write fails; the times stay queued then. */
  flushLastUsed(): void {
    if (this.lastUsed.size === 0) return;
    this.store.touchKeys(this.lastUsed);
    this.lastUsed.clear();
  }

  /** Starts writing last-used times every flushIntervalMs; close() stops it. */
  start(): void {
    if (this.flushTimer) return;
    this.flushTimer = setInterval(() => {
      try {
        this.flushLastUsed();
      } catch (error) {
        this.onError(error);
      }
    }, this.flushIntervalMs);
    // The timer must not keep `switchyard keys …` or a test alive; the owner's close() writes the rest.
    this.flushTimer.unref();
  }

  /** Stops the timer and writes what is queued (throws if that write fails). Safe to call twice. */
  close(): void {
    clearInterval(this.flushTimer);
    this.flushTimer = undefined;
    this.flushLastUsed();
  }

  private findRow(id: string): KeyRow | undefined {
    // One cheap pragma read per request: any change by this or another process (a CLI `keys delete`)
    // empties the cache, so a deleted key stops working at once without a restart.
    const version = this.store.changeVersion();
    if (version !== this.cacheVersion) {
      this.cache.clear();
      this.cacheVersion = version;
    }
    let row = this.cache.get(id);
    if (!row) {
      row = this.store.getKey(id);
      if (row) this.cache.set(id, row);
    }
    return row;
  }

  private toInfo(row: KeyRow): ApiKeyInfo {
    const lastUsedAt = Math.max(row.lastUsedAt ?? 0, this.lastUsed.get(row.id) ?? 0);
    return {
      id: row.id,
      name: row.name,
      label: row.label,
      created_at: new Date(row.createdAt).toISOString(),
      last_used_at: lastUsedAt > 0 ? new Date(lastUsedAt).toISOString() : null,
    };
  }
}

function validateName(name: unknown): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  const length = [...trimmed].length;
  if (length === 0 || length > maxNameLength) {
    throw new ApiError(400, `Key name must be 1 to ${maxNameLength} characters.`);
  }
  // Names are printed in CLI tables and logs, where a newline or escape sequence would garble the output.
  if (/\p{Cc}/u.test(trimmed)) throw new ApiError(400, 'Key name must not contain control characters.');
  return trimmed;
}
