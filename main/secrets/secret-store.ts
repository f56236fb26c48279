// The contract for provider API keys. Callers depend on this alone; whether a key lives in the OS keychain or
// in a 0600 file is decided once at start by openSecretStore; in PostgreSQL mode keys are sealed in the shared
// database (openDatabaseSecrets).

export type SecretStoreKind = 'keychain' | 'file' | 'database';

export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** Human-readable location for messages, e.g. 'OS keychain (service "Switchyard")' or the file path. */
  readonly location: string;
  /** The secret, or null when none is stored. Served from memory after the first read in this process. */
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** False when nothing was stored for the account. */
  delete(account: string): Promise<boolean>;
  /**
   * Forgets cached values (one account, or all) so the next get() asks the keychain or file again. Needed
   * because another process (the CLI) may change secrets while this one runs.
   */
  invalidate(account?: string): void;
}

export interface OpenedSecretStore {
  store: SecretStore;
  /** One line for the caller to print at start (for example: keys go to a file because no keychain answered). */
  warning: string | null;
}

// Both stores validate the same way so that switching between them never changes what callers may pass.
// Messages name the account only: a secret must never reach an error, and errors reach logs.

export function assertAccount(account: unknown): asserts account is string {
  if (typeof account !== 'string' || account.length === 0) {
    throw new TypeError('A secret account must be a non-empty string.');
  }
}

export function assertSecret(account: string, secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError(`The secret for account "${account}" must be a non-empty string; use delete() to remove it.`);
  }
}
