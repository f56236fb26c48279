// Provider keys in <dataDir>/secrets.json, for machines where no OS keychain is reachable (headless Linux).
// The protection is the file mode alone (0600 in a 0700 dir), as for ~/.ssh keys or ~/.netrc: anyone who can
// read files as this user can read the keys.
//
// Several processes may write (`switchyard serve`, a CLI `providers add`). Each write takes a lock file, re-reads
// the file under it and changes only its own account, so no writer loses another's entry. Readers need no
// lock: every write replaces the file atomically (temp file in the same dir, fsync, rename), so a reader sees
// the old file or the new one, never half of one.

import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatMode, privateDirMode, privateFileMode, restrictFileModeSync, writeFileAtomic } from '../files/index.js';
import { describeError, errorCode } from './describe-error.js';
import { defaultFileLockOptions, withFileLock, type FileLockOptions } from './file-lock.js';
import { CachedSecretStore } from './secret-cache.js';

export const secretsFileName = 'secrets.json';

const fileFormatVersion = 1;

export interface FileSecretStoreOptions {
  lock?: Partial<FileLockOptions>;
}

export class FileSecretStore extends CachedSecretStore {
  readonly kind = 'file';
  readonly location: string;
  readonly #filePath: string;
  readonly #lockOptions: FileLockOptions;

  constructor(filePath: string, options: FileSecretStoreOptions = {}) {
    super();
    this.#filePath = filePath;
    this.location = filePath;
    this.#lockOptions = { ...defaultFileLockOptions, ...options.lock };
  }

  protected async load(account: string): Promise<string | null> {
    return (await readSecrets(this.#filePath)).get(account) ?? null;
  }

  protected async save(account: string, secret: string): Promise<void> {
    await this.#update((secrets) => {
      secrets.set(account, secret);
      return true;
    });
  }

  protected remove(account: string): Promise<boolean> {
    return this.#update((secrets) => secrets.delete(account));
  }

  /** Applies `change` to the file's current contents under the lock; writes only when `change` returns true. */
  async #update(change: (secrets: Map<string, string>) => boolean): Promise<boolean> {
    const dir = path.dirname(this.#filePath);
    // 0700 only when we create it: the data dir is shared with the database and settings.
    await mkdir(dir, { recursive: true, mode: privateDirMode });
    return withFileLock(`${this.#filePath}.lock`, this.#lockOptions, async () => {
      const secrets = await readSecrets(this.#filePath);
      if (!change(secrets)) return false;
      await writeSecretsAtomically(this.#filePath, secrets);
      return true;
    });
  }
}

/**
 * Makes an existing secrets file private again when its mode lets others read it. Returns a one-line warning
 * for the caller to print, or null when the mode was already right (or the file does not exist yet).
 */
export async function tightenSecretsFileMode(filePath: string): Promise<string | null> {
  const previous = restrictFileModeSync(filePath, 'The secrets file');
  if (previous === null) return null;
  return `The secrets file ${filePath} was readable by other users (mode ${formatMode(previous)}); it is now 0600, but consider rotating the keys in it.`;
}

async function readSecrets(filePath: string): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return new Map();
    throw new Error(`Could not read the secrets file ${filePath}: ${describeError(error)}`, { cause: error });
  }
  // Neither message nor cause may quote the file: JSON.parse's own message echoes the text around the error.
  const unreadable = `The secrets file ${filePath} is not a valid Switchyard secrets file`;
  const fix = 'Fix it, or move it away and add the provider keys again.';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${unreadable} (it is not valid JSON). ${fix}`);
  }
  const secrets = isRecord(parsed) && parsed.version === fileFormatVersion ? parsed.secrets : undefined;
  if (!isRecord(secrets) || !Object.values(secrets).every((value) => typeof value === 'string')) {
    throw new Error(`${unreadable} (unexpected structure). ${fix}`);
  }
  // A Map rather than the object itself, so that an account named "__proto__" is just another key.
  return new Map(Object.entries(secrets as Record<string, string>));
}

async function writeSecretsAtomically(filePath: string, secrets: Map<string, string>): Promise<void> {
  const sorted = [...secrets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const body = { version: fileFormatVersion, secrets: Object.fromEntries(sorted) };
  try {
    // The temp file is created 0600 from the start, so the secrets are never readable by others, not even for
    // a moment; after a crash the file is the old one or the new one, never empty.
    await writeFileAtomic(filePath, `${JSON.stringify(body, null, 2)}\n`, privateFileMode);
  } catch (error) {
    throw new Error(`Could not write the secrets file ${filePath}: ${describeError(error)}`, { cause: error });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
