// The keys an instance holds for sealed secrets: SWITCHYARD_SECRET_KEY, which seals every new value, and during a
// rotation SWITCHYARD_SECRET_KEY_PREVIOUS, which only opens values not yet re-sealed (decision 017). Each value
// names the key id it was sealed with, so the keyring picks the key by id and a value under neither key is an
// error naming the ids — never a key, never a value.

import { SecretCipher, SecretDecryptionError, sealedKeyId, secretKeyVariable } from './secret-cipher.js';

export const previousSecretKeyVariable = 'SWITCHYARD_SECRET_KEY_PREVIOUS';

export class SecretKeyring {
  readonly current: SecretCipher;
  readonly previous: SecretCipher | undefined;

  constructor(current: SecretCipher, previous?: SecretCipher) {
    this.current = current;
    this.previous = previous;
  }

  /**
   * SWITCHYARD_SECRET_KEY, required, and SWITCHYARD_SECRET_KEY_PREVIOUS when set.
   * @throws {SecretKeyError} naming the variable that is missing or malformed.
   */
  static fromEnv(env: Record<string, string | undefined> = process.env): SecretKeyring {
    const previous = env[previousSecretKeyVariable]?.trim();
    return new SecretKeyring(
      new SecretCipher(env[secretKeyVariable]),
      previous ? new SecretCipher(previous, previousSecretKeyVariable) : undefined,
    );
  }

  /** Whether a value sealed under this key id opens here. */
  holds(keyId: string): boolean {
    return keyId === this.current.keyId || keyId === this.previous?.keyId;
  }

  /** Seals under the current key. */
  seal(secret: string, context: string): string {
    return this.current.seal(secret, context);
  }

  /** Opens a value sealed under either key; throws SecretDecryptionError otherwise. */
  open(sealed: string, context: string): string {
    const keyId = sealedKeyId(sealed);
    if (keyId !== undefined && !this.holds(keyId)) {
      throw new SecretDecryptionError(
        'wrong-key',
        `The stored secret "${context}" was encrypted with key id ${keyId}, but ${this.describe()}. ` +
          `Start with the key it was encrypted with (during a rotation, as ${previousSecretKeyVariable}), ` +
          'or enter the secret again.',
      );
    }
    const cipher = this.previous && keyId === this.previous.keyId ? this.previous : this.current;
    return cipher.open(sealed, context);
  }

  /** `SWITCHYARD_SECRET_KEY is key id 1a2b3c4d (and SWITCHYARD_SECRET_KEY_PREVIOUS is …)`, for messages. */
  describe(): string {
    const current = `${secretKeyVariable} is key id ${this.current.keyId}`;
    return this.previous
      ? `${current} and ${previousSecretKeyVariable} is key id ${this.previous.keyId}`
      : `${current} (${previousSecretKeyVariable} is not set)`;
  }
}
