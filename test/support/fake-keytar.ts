// An in-memory keytar for tests: counts calls and can be told to fail or hang, like a keychain without a
// Secret Service behind it.

import type { KeytarApi } from '../../main/secrets/keychain-store.js';

export class FakeKeytar implements KeytarApi {
  readonly entries = new Map<string, string>();
  calls = 0;
  /** When set, every call rejects with it. */
  failure: Error | null = null;
  /** When true, every call stays pending forever. */
  hang = false;

  async getPassword(service: string, account: string): Promise<string | null> {
    await this.#enter();
    return this.entries.get(`${service}/${account}`) ?? null;
  }

  async setPassword(service: string, account: string, password: string): Promise<void> {
    await this.#enter();
    this.entries.set(`${service}/${account}`, password);
  }

  async deletePassword(service: string, account: string): Promise<boolean> {
    await this.#enter();
    return this.entries.delete(`${service}/${account}`);
  }

  async #enter(): Promise<void> {
    this.calls += 1;
    if (this.hang) await new Promise(() => undefined);
    if (this.failure) throw this.failure;
  }
}
