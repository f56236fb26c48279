// `switchyard secret-key …`, run as a user runs it. generate: one key on standard output, usable as
// SWITCHYARD_SECRET_KEY, different every time. rotate: against a real throwaway PostgreSQL, it re-encrypts and the
// process ends (the pool does not keep it alive).

import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DatabaseSecretStore, generateSecretKey, SecretCipher, SecretKeyring } from '../../main/secrets/index.js';
import { migratePostgres } from '../../main/store/postgres/migrate.js';
import { runCli } from '../support/cli.js';
import { startPostgres } from '../support/postgres.js';
import { useHarness } from '../support/use-harness.js';

describe('switchyard secret-key generate', () => {
  it('prints a fresh 32-byte base64 key and nothing else', async () => {
    const first = await runCli(['secret-key', 'generate']);
    const second = await runCli(['secret-key', 'generate']);
    for (const result of [first, second]) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    }
    expect(first.stdout).not.toBe(second.stdout);
    // What it prints is a key the cipher accepts, read as the shell's $(…) would.
    const cipher = SecretCipher.fromEnv({ SWITCHYARD_SECRET_KEY: first.stdout.trim() });
    expect(cipher.open(cipher.seal('sk-secret', 'provider:p'), 'provider:p')).toBe('sk-secret');
  });
});

describe('switchyard secret-key rotate', () => {
  const postgres = useHarness(startPostgres, (started) => started.stop());

  it('re-encrypts what the database holds, then exits; without a database it fails with one line', async () => {
    const databaseUrl = await postgres().createDatabase();
    const oldKey = generateSecretKey();
    const newKey = generateSecretKey();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      await migratePostgres(pool);
      await new DatabaseSecretStore(pool, new SecretKeyring(new SecretCipher(oldKey))).set(
        'provider:p',
        'sk-e2e-secret',
      );
    } finally {
      await pool.end();
    }

    const env = { SWITCHYARD_SECRET_KEY: newKey, SWITCHYARD_SECRET_KEY_PREVIOUS: oldKey, SWITCHYARD_DATABASE_URL: '' };
    const rotated = await runCli(['secret-key', 'rotate', '--database-url', databaseUrl], { env });
    expect(rotated.stdout).toBe(
      `Re-encrypted 1 stored secret with SWITCHYARD_SECRET_KEY (key id ${new SecretCipher(newKey).keyId}); 0 already were.\n`,
    );
    expect(rotated.code, rotated.stderr).toBe(0);

    const withoutDatabase = await runCli(['secret-key', 'rotate'], { env });
    expect(withoutDatabase.code).toBe(1);
    expect(withoutDatabase.stdout).toBe('');
    expect(withoutDatabase.stderr).toMatch(
      /^switchyard: secret-key rotate needs the team server's PostgreSQL database/,
    );
    for (const result of [rotated, withoutDatabase]) {
      for (const secret of [oldKey, newKey, 'sk-e2e-secret', new URL(databaseUrl).password]) {
        expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
      }
    }
  });
});
