// The work of `switchyard secret-key rotate` (decision 017): every value in `sealed_secrets` opened with the key it
// was sealed with (SWITCHYARD_SECRET_KEY_PREVIOUS, or the current key for values already re-sealed) and sealed
// again under SWITCHYARD_SECRET_KEY, in one transaction. A value that does not open stops it with nothing changed,
// and running it again changes nothing: a value already under the current key is only checked.

import type pg from 'pg';
import { sealedKeyId } from './secret-cipher.js';
import type { SecretKeyring } from './secret-keyring.js';

export interface ResealOutcome {
  /** Values sealed again under the current key. */
  resealed: number;
  /** Values that were under the current key already. */
  unchanged: number;
  /** The current key's id, which every stored value now names. */
  keyId: string;
}

interface SealedRow {
  name: string;
  sealed: string;
}

export async function resealSecrets(
  pool: pg.Pool,
  keyring: SecretKeyring,
  now: () => number = Date.now,
): Promise<ResealOutcome> {
  const client = await pool.connect();
  let inDoubt: Error | undefined;
  try {
    try {
      await client.query('BEGIN');
      // Other writers wait until the commit (readers do not), so no value lands under another key meanwhile, and
      // two rotations run one after the other.
      await client.query('LOCK TABLE sealed_secrets IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await client.query<SealedRow>('SELECT name, sealed FROM sealed_secrets ORDER BY name');
      let resealed = 0;
      for (const row of rows) {
        let secret: string;
        try {
          secret = keyring.open(row.sealed, row.name);
        } catch (error) {
          throw new Error(`Nothing was re-encrypted: ${(error as Error).message}`, { cause: error });
        }
        if (sealedKeyId(row.sealed) === keyring.current.keyId) continue;
        await client.query('UPDATE sealed_secrets SET sealed = $2, updated_at = $3 WHERE name = $1', [
          row.name,
          keyring.seal(secret, row.name),
          now(),
        ]);
        resealed++;
      }
      await client.query('COMMIT');
      return { resealed, unchanged: rows.length - resealed, keyId: keyring.current.keyId };
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        inDoubt = rollbackError as Error;
      });
      throw error;
    }
  } finally {
    // A connection whose ROLLBACK failed is closed rather than handed to the next caller mid-transaction.
    client.release(inDoubt);
  }
}
