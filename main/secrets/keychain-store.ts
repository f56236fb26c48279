// Provider keys in the OS keychain (macOS Keychain, Windows Credential Manager, a Secret Service such as
// gnome-keyring on Linux) through keytar. Nothing is written to disk by us.

import { describeError } from './describe-error.js';
import { CachedSecretStore } from './secret-cache.js';

export const keychainServiceName = 'Switchyard';

/** The part of keytar we use; tests stand in fakes that hang or throw. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** Throws when the native module cannot load (missing build, missing libsecret): the keychain is then unreachable. */
export async function loadKeytar(): Promise<KeytarApi> {
  // keytar is CommonJS: Node exposes module.exports as `default` and detects only some of its named exports.
  const loaded = (await import('keytar')) as unknown as { default?: KeytarApi } & KeytarApi;
  return loaded.default ?? loaded;
}

export type KeychainProbe = { reachable: true } | { reachable: false; reason: string };

// An account nobody stores: looking it up needs the whole path (bus, Secret Service, keychain) but matches
// nothing, so it never asks the user to unlock anything and never loads other secrets into this process.
const probeAccount = 'switchyard:probe';

/**
 * Asks the keychain something cheap. Without a Secret Service, keytar throws (no bus) or never answers (a bus
 * that nobody serves), so a timeout counts as unreachable. The abandoned call cannot be cancelled: it keeps one
 * libuv worker until D-Bus gives up, which is why callers that must exit promptly should exit explicitly.
 */
export async function probeKeychain(keytar: KeytarApi, timeoutMs: number): Promise<KeychainProbe> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<KeychainProbe>((resolve) => {
    timer = setTimeout(() => resolve({ reachable: false, reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const lookup = keytar.getPassword(keychainServiceName, probeAccount).then(
    (): KeychainProbe => ({ reachable: true }),
    (error: unknown): KeychainProbe => ({ reachable: false, reason: describeError(error) }),
  );
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What to do about an unreachable or failing keychain on this platform. */
export function keychainHelp(platform: NodeJS.Platform = process.platform): string {
  const orFile = 'or set SWITCHYARD_SECRET_STORE=file to keep provider keys in a 0600 file in the data dir';
  if (platform === 'darwin') return `Make sure the login keychain is unlocked, ${orFile}.`;
  if (platform === 'win32') return `Make sure Windows Credential Manager is available, ${orFile}.`;
  return (
    'On Linux the keychain is a Secret Service on the D-Bus session bus: run one such as gnome-keyring ' +
    `(DBUS_SESSION_BUS_ADDRESS set, keyring unlocked), ${orFile}.`
  );
}

export class KeychainSecretStore extends CachedSecretStore {
  readonly kind = 'keychain';
  readonly location = `OS keychain (service "${keychainServiceName}")`;
  readonly #keytar: KeytarApi;

  constructor(keytar: KeytarApi) {
    super();
    this.#keytar = keytar;
  }

  protected load(account: string): Promise<string | null> {
    return this.#keytar.getPassword(keychainServiceName, account).catch((error: unknown) => {
      throw keychainError(`read the secret for account "${account}" from`, error);
    });
  }

  protected async save(account: string, secret: string): Promise<void> {
    try {
      await this.#keytar.setPassword(keychainServiceName, account, secret);
    } catch (error) {
      throw keychainError(`store the secret for account "${account}" in`, error);
    }
  }

  protected async remove(account: string): Promise<boolean> {
    try {
      return await this.#keytar.deletePassword(keychainServiceName, account);
    } catch (error) {
      throw keychainError(`delete the secret for account "${account}" from`, error);
    }
  }
}

// keytar's errors come from the OS (libsecret, Security.framework, CredMan) and never contain the password.
function keychainError(action: string, error: unknown): Error {
  return new Error(`Could not ${action} the OS keychain: ${describeError(error)}. ${keychainHelp()}`);
}
