// The in-memory cache every store shares (keychain, file, database), and the store they are built on. The gateway
// reads a provider's key on every request, and a keychain read is a D-Bus round trip, so values stay here until the
// caller invalidates them.
//
// Entries are promises, not values: concurrent first reads share one lookup, and a lookup that started before
// a set() can never overwrite the newer value when it finishes late (set() replaces the entry instead).

import { assertAccount, assertSecret, type SecretStore, type SecretStoreKind } from './secret-store.js';

class SecretCache {
  readonly #entries = new Map<string, Promise<string | null>>();

  read(account: string, load: () => Promise<string | null>): Promise<string | null> {
    const cached = this.#entries.get(account);
    if (cached) return cached;
    const loading = load();
    this.#entries.set(account, loading);
    // A failed lookup is not an answer: the next read asks again.
    loading.catch(() => {
      if (this.#entries.get(account) === loading) this.#entries.delete(account);
    });
    return loading;
  }

  remember(account: string, secret: string | null): void {
    this.#entries.set(account, Promise.resolve(secret));
  }

  forget(account?: string): void {
    if (account === undefined) this.#entries.clear();
    else this.#entries.delete(account);
  }
}

/**
 * A secret store over where its secrets are kept (load, save, remove), with what every store does the same: the
 * account and secret checks, and the cache, forgotten while a change is under way and set once it is done.
 */
export abstract class CachedSecretStore implements SecretStore {
  abstract readonly kind: SecretStoreKind;
  abstract readonly location: string;
  readonly #cache = new SecretCache();

  /** The stored secret, or null: asked on a read the cache cannot answer. */
  protected abstract load(account: string): Promise<string | null>;
  protected abstract save(account: string, secret: string): Promise<void>;
  /** False when nothing was stored for the account. */
  protected abstract remove(account: string): Promise<boolean>;

  async get(account: string): Promise<string | null> {
    assertAccount(account);
    return this.#cache.read(account, () => this.load(account));
  }

  async set(account: string, secret: string): Promise<void> {
    assertAccount(account);
    assertSecret(account, secret);
    // Until the store confirms, the old cached value may already be wrong.
    this.#cache.forget(account);
    await this.save(account, secret);
    this.#cache.remember(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    assertAccount(account);
    this.#cache.forget(account);
    const deleted = await this.remove(account);
    this.#cache.remember(account, null);
    return deleted;
  }

  invalidate(account?: string): void {
    this.#cache.forget(account);
  }

  /** A value read outside get() (a start-up check), served from memory afterwards. */
  protected remember(account: string, secret: string | null): void {
    this.#cache.remember(account, secret);
  }
}
