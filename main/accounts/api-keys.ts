// Gateway API keys: creation, listing, deletion, and authentication on every request.

import {
  ApiError,
  type ApiKeyDetails,
  type CreatedApiKey,
  type KeyRules,
  type KeyRulesChange,
} from '../../shared/api/index.js';
import { defaultKeyRules, type KeyRow, type KeyRulesRow, type Store } from '../store/index.js';
import { applyRulesChange, toApiRules } from './key-rules.js';
import { lockedState } from './key-state.js';
import { generateKeySecret, hashKeySecret, keyIdOf, secretMatchesHash, shownKeyLabel } from './key-secret.js';

export type KeyStore = Pick<
  Store,
  | 'insertKey'
  | 'getKey'
  | 'listKeys'
  | 'deleteKey'
  | 'deletedKeyNames'
  | 'renameKey'
  | 'touchKeys'
  | 'changeVersion'
  | 'getKeyRules'
  | 'listKeyRules'
  | 'setKeyRules'
>;

export interface ApiKeysOptions {
  /** How often start()'s timer writes last-used times. */
  flushIntervalMs?: number;
  /** Receives failures of the timer's writes (the times stay queued and are retried). */
  onError?: (error: unknown) => void;
  /** Clock for expiry, for tests. */
  now?: () => number;
}

const maxNameLength = 100;

/**
 * What a new key may do unless its creator says otherwise: everything but the management right (listing and
 * deleting other keys), so a key handed to a script cannot revoke the rest. Keys without a rules row, from before
 * rules existed, keep the store's defaults (management on): they could always manage, and scripts rely on it.
 */
const newKeyRules: Readonly<KeyRulesRow> = Object.freeze({ ...defaultKeyRules, management: false });

/** What a listing shows of a key that only a change of the key changes: its creation time and rules. */
interface ShownKey {
  createdAt: string;
  rules: KeyRules;
}

interface CachedKey {
  row: KeyRow;
  rules: KeyRulesRow;
  /** Made by the first authentication, and dropped with the entry: ISO strings and a rules object per request cost. */
  shown?: ShownKey;
}

export class ApiKeys {
  private readonly store: KeyStore;
  private readonly flushIntervalMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly now: () => number;
  /** Rows and rules by id, valid while store.changeVersion() stays at cacheVersion. */
  private readonly cache = new Map<string, CachedKey>();
  private cacheVersion: number | undefined;
  /** Last-used times not yet written: a DB write per request would put the disk on the hot path. */
  private readonly lastUsed = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | undefined;
  /**
   * The second of the last last-used time shown, with its ISO text up to the milliseconds: every authentication
   * shows the time, and Date#toISOString was over half a per cent of the gateway's CPU.
   */
  private shownSecond = { second: Number.NaN, prefix: '' };

  constructor(store: KeyStore, options: ApiKeysOptions = {}) {
    this.store = store;
    this.flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.now = options.now ?? Date.now;
    this.onError =
      options.onError ?? ((error) => console.error('switchyard: could not save key last-used times', error));
  }

  /**
   * Creates a key, with rules when given (else everything allowed but management). Throws
   * ApiError(400) for an empty, too long or multi-line name, or an invalid rule.
   */
  async create(name: string, rules: KeyRulesChange = {}): Promise<CreatedApiKey & ApiKeyDetails> {
    const validName = validateName(name);
    const validRules = applyRulesChange(newKeyRules, rules);
    const { id, secret, label } = generateKeySecret();
    const row = { id, name: validName, label, secretHash: hashKeySecret(secret), createdAt: Date.now() };
    await this.store.insertKey(row, validRules);
    return { ...this.toInfo({ ...row, lastUsedAt: null }, shownKey(row, validRules)), key: secret };
  }

  /**
   * Changes some of a key's rules, and its name when given; both are checked before either is stored. Throws ApiError
   * 404 for an unknown key, 400 for an invalid rule or a name create() would refuse.
   */
  async update(id: string, change: KeyRulesChange, name?: string): Promise<ApiKeyDetails> {
    const row = this.store.getKey(id);
    if (!row) throw new ApiError(404, `No API key has the id "${id}".`);
    const rules = applyRulesChange(this.store.getKeyRules(id), change);
    const newName = name === undefined ? row.name : validateName(name);
    if (!(await this.store.setKeyRules(id, rules))) throw new ApiError(404, `No API key has the id "${id}".`);
    if (newName !== row.name) await this.store.renameKey(id, newName);
    this.cache.delete(id);
    return this.toInfo({ ...row, name: newName }, shownKey(row, rules));
  }

  /** Oldest first. */
  list(): ApiKeyDetails[] {
    const rules = this.store.listKeyRules();
    return this.store.listKeys().map((row) => this.toInfo(row, shownKey(row, rules.get(row.id) ?? defaultKeyRules)));
  }

  get(id: string): ApiKeyDetails | undefined {
    const row = this.store.getKey(id);
    return row && this.toInfo(row, shownKey(row, this.store.getKeyRules(id)));
  }

  /** The key's rules from memory (a new key's, without management, for an unknown id). Cheap: called per request. */
  rulesOf(id: string): Readonly<KeyRulesRow> {
    return this.findKey(id)?.rules ?? newKeyRules;
  }

  /** Every key's name by id; a deleted key's as `name (deleted)` (keys deleted before names were kept have none). */
  async namesById(): Promise<Map<string, string>> {
    const names = new Map([...(await this.store.deletedKeyNames())].map(([id, name]) => [id, `${name} (deleted)`]));
    for (const key of this.store.listKeys()) names.set(key.id, key.name);
    return names;
  }

  /** False when no key has this id. Once it returns true, authenticate() rejects the key. */
  async delete(id: string): Promise<boolean> {
    this.cache.delete(id);
    this.lastUsed.delete(id);
    return this.store.deleteKey(id);
  }

  /**
   * The key whose secret this is, or null (unknown, deleted, wrong or malformed secret); never throws on such
   * input. Throws ApiError(401) for the right secret of a key that is disabled or has expired.
   */
  authenticate(secret: string): ApiKeyDetails | null {
    const id = keyIdOf(secret);
    if (id === null) return null;
    const found = this.findKey(id, { fresh: true });
    if (!found || !secretMatchesHash(secret, found.row.secretHash)) return null;
    const { row, rules } = found;
    const locked = lockedState(rules, this.now());
    if (locked === 'disabled') throw unauthorized('This API key is disabled.');
    if (locked === 'expired') {
      throw unauthorized(`This API key expired at ${new Date(rules.expiresAt!).toISOString()}.`);
    }
    this.lastUsed.set(id, Date.now());
    found.shown ??= shownKey(row, rules);
    return this.toInfo(row, found.shown);
  }

  /** Writes the queued last-used times. Throws when the write fails; the times stay queued then. */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    // Times recorded during the write stay queued for the next one.
    const written = new Map(this.lastUsed);
    await this.store.touchKeys(written);
    for (const [id, at] of written) if (this.lastUsed.get(id) === at) this.lastUsed.delete(id);
  }

  /** Starts writing last-used times every flushIntervalMs; close() stops it. */
  start(): void {
    if (this.flushTimer) return;
    this.flushTimer = setInterval(() => {
      this.flushLastUsed().catch((error: unknown) => this.onError(error));
    }, this.flushIntervalMs);
    // The timer must not keep `switchyard keys …` or a test alive; the owner's close() writes the rest.
    this.flushTimer.unref();
  }

  /** Stops the timer and writes what is queued (rejects if that write fails). Safe to call twice. */
  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    this.flushTimer = undefined;
    await this.flushLastUsed();
  }

  private findKey(id: string, read?: { fresh: boolean }): CachedKey | undefined {
    // One cheap pragma read per request, fresh when authenticating: any change by this or another process (a CLI
    // `keys delete`) empties the cache, so a deleted key stops working on the very next request without a restart.
    const version = this.store.changeVersion(read);
    if (version !== this.cacheVersion) {
      this.cache.clear();
      this.cacheVersion = version;
    }
    let found = this.cache.get(id);
    if (!found) {
      const row = this.store.getKey(id);
      if (row) {
        found = { row, rules: this.store.getKeyRules(id) };
        this.cache.set(id, found);
      }
    }
    return found;
  }

  // Written out rather than spread from the rules: a spread-and-extend literal costs more than the rest of this.
  private toInfo(row: KeyRow, { createdAt, rules }: ShownKey): ApiKeyDetails {
    const lastUsedAt = Math.max(row.lastUsedAt ?? 0, this.lastUsed.get(row.id) ?? 0);
    return {
      id: row.id,
      name: row.name,
      label: shownKeyLabel(row.label),
      created_at: createdAt,
      last_used_at: lastUsedAt > 0 ? this.isoTime(lastUsedAt) : null,
      limit: rules.limit,
      limit_reset: rules.limit_reset,
      allowed_models: rules.allowed_models,
      allowed_providers: rules.allowed_providers,
      management: rules.management,
      expires_at: rules.expires_at,
      disabled: rules.disabled,
      requests_per_minute: rules.requests_per_minute,
      tokens_per_minute: rules.tokens_per_minute,
      allowed_mcp: rules.allowed_mcp,
      metrics: rules.metrics,
    };
  }

  /** `new Date(at).toISOString()`, for a time after 1970. */
  private isoTime(at: number): string {
    const second = Math.floor(at / 1000);
    if (second !== this.shownSecond.second) {
      this.shownSecond = { second, prefix: new Date(second * 1000).toISOString().slice(0, -4) };
    }
    return `${this.shownSecond.prefix}${String(Math.floor(at % 1000)).padStart(3, '0')}Z`;
  }
}

function shownKey(row: Pick<KeyRow, 'createdAt'>, rules: KeyRulesRow): ShownKey {
  return { createdAt: new Date(row.createdAt).toISOString(), rules: toApiRules(rules) };
}

function unauthorized(message: string): ApiError {
  return new ApiError(401, message, {}, { 'www-authenticate': 'Bearer' });
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
