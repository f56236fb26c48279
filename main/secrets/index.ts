// Where upstream providers' API keys live: the OS keychain, or a 0600 file when no keychain is reachable.

export { openSecretStore, type OpenSecretStoreOptions } from './open-secret-store.js';
export type { OpenedSecretStore, SecretStore, SecretStoreKind } from './secret-store.js';
