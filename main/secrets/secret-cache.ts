// The in-memory cache both stores share. The gateway reads a provider's key on every request, and a keychain
// read is a D-Bus round trip, so values stay here until the caller invalidates them.
//
// Entries are promises, not values: concurrent first reads share one lookup, and a lookup that started before
// a set() can never overwrite the newer value when it finishes late (set() replaces the entry instead).

export class SecretCache {
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
