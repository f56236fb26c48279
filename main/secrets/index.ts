// Where upstream providers' API keys live: the OS keychain, or a 0600 file when no keychain is reachable; and the
// cipher that seals them for a shared database (SWITCHYARD_SECRET_KEY).

export { openSecretStore, type OpenSecretStoreOptions } from './open-secret-store.js';
export type { OpenedSecretStore, SecretStore, SecretStoreKind } from './secret-store.js';
export {
  generateSecretKey,
  SecretCipher,
  SecretDecryptionError,
  SecretKeyError,
  secretKeyVariable,
} from './secret-cipher.js';
export { DatabaseSecretStore, openDatabaseSecrets, type SqlClient } from './database-secret-store.js';
export { previousSecretKeyVariable, SecretKeyring } from './secret-keyring.js';
export { resealSecrets, type ResealOutcome } from './reseal-secrets.js';
