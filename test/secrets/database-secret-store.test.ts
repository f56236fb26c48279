// Provider secrets sealed in PostgreSQL (decision 017), on a real throwaway server (test/support/postgres.ts): what
// the table holds, what each instance caches, and what starting with a missing, malformed or wrong key says.

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DatabaseSecretStore,
  generateSecretKey,
  openDatabaseSecrets,
  SecretCipher,
  SecretDecryptionError,
  SecretKeyError,
  SecretKeyring,
} from '../../main/secrets/index.js';
import { migratePostgres } from '../../main/store/postgres/migrate.js';
import { expectServedFromMemoryUntilInvalidated } from '../../main/secrets/test-support.js';
import { usePostgresStores } from '../support/postgres-store.js';

const openaiSecret = 'sk-proj-OPENAI-very-secret-1';
const anthropicSecret = 'sk-ant-ANTHROPIC-very-secret-2';

const postgres = usePostgresStores();
const pools: pg.Pool[] = [];

async function migratedPool(): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: await postgres.database(), max: 3 });
  pools.push(pool);
  await migratePostgres(pool);
  return pool;
}

function keyring(current: string, previous?: string): SecretKeyring {
  return new SecretKeyring(new SecretCipher(current), previous ? new SecretCipher(previous) : undefined);
}

async function rawRows(pool: pg.Pool): Promise<{ name: string; sealed: string; updated_at: string }[]> {
  return (await pool.query('SELECT name, sealed, updated_at FROM sealed_secrets ORDER BY name')).rows;
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

// Registered after the cluster's own hooks, so the pools end before it stops.
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

describe('DatabaseSecretStore', () => {
  it('stores each value sealed for its own name, never in clear, and reads it back', async () => {
    const pool = await migratedPool();
    const key = generateSecretKey();
    const store = new DatabaseSecretStore(pool, keyring(key), () => 1_700_000_000_000);
    expect(store.kind).toBe('database');
    expect(store.location).toMatch(/^the database, encrypted with SWITCHYARD_SECRET_KEY \(key id [0-9a-f]{8}\)$/);

    await store.set('provider:openai', openaiSecret);
    await store.set('provider:anthropic', anthropicSecret);
    const rows = await rawRows(pool);
    expect(rows.map((row) => row.name)).toEqual(['provider:anthropic', 'provider:openai']);
    for (const row of rows) {
      expect(row.sealed).toMatch(new RegExp(`^v1\\.${new SecretCipher(key).keyId}\\.`));
      expect(row.sealed).not.toContain('very-secret');
      expect(row.updated_at).toBe('1700000000000');
    }

    // Another instance with the same key, nothing cached: it reads from the table.
    const other = new DatabaseSecretStore(pool, keyring(key));
    expect(await other.get('provider:openai')).toBe(openaiSecret);
    expect(await other.get('provider:anthropic')).toBe(anthropicSecret);
    expect(await other.get('provider:none')).toBeNull();

    expect(await store.delete('provider:openai')).toBe(true);
    expect(await store.delete('provider:openai')).toBe(false);
    expect(await store.get('provider:openai')).toBeNull();
    expect((await rawRows(pool)).map((row) => row.name)).toEqual(['provider:anthropic']);
  });

  it('replaces a value in place and refuses empty names and secrets as the other stores do', async () => {
    const pool = await migratedPool();
    const store = new DatabaseSecretStore(pool, keyring(generateSecretKey()));
    await store.set('provider:openai', openaiSecret);
    await store.set('provider:openai', 'sk-replaced');
    expect(await rawRows(pool)).toHaveLength(1);
    store.invalidate();
    expect(await store.get('provider:openai')).toBe('sk-replaced');
    await expect(store.set('', 'x')).rejects.toThrow(/non-empty string/);
    await expect(store.set('provider:openai', '')).rejects.toThrow(/use delete\(\) to remove it/);
  });

  it('serves values from memory until invalidated, so another instance’s change shows after invalidate()', async () => {
    const pool = await migratedPool();
    const key = generateSecretKey();
    const [reader, writer] = [new DatabaseSecretStore(pool, keyring(key)), new DatabaseSecretStore(pool, keyring(key))];
    await expectServedFromMemoryUntilInvalidated(reader, writer);
  });

  it('refuses a value copied onto another row: the name is sealed with it', async () => {
    const pool = await migratedPool();
    const store = new DatabaseSecretStore(pool, keyring(generateSecretKey()));
    await store.set('provider:openai', openaiSecret);
    await store.set('provider:cheap', 'sk-cheap');
    await pool.query(
      "UPDATE sealed_secrets SET sealed = (SELECT sealed FROM sealed_secrets WHERE name = 'provider:openai') " +
        "WHERE name = 'provider:cheap'",
    );
    store.invalidate();
    const error = await failureOf(store.get('provider:cheap'));
    expect(error).toBeInstanceOf(SecretDecryptionError);
    expect((error as SecretDecryptionError).reason).toBe('tampered');
    expect(error.message).not.toContain(openaiSecret);
  });

  it('opens values sealed under the previous key and seals new ones under the current key', async () => {
    const pool = await migratedPool();
    const oldKey = generateSecretKey();
    const newKey = generateSecretKey();
    await new DatabaseSecretStore(pool, keyring(oldKey)).set('provider:openai', openaiSecret);

    const rotating = new DatabaseSecretStore(pool, keyring(newKey, oldKey));
    expect(await rotating.get('provider:openai')).toBe(openaiSecret);
    await rotating.set('provider:anthropic', anthropicSecret);
    const sealedAnthropic = (await rawRows(pool)).find((row) => row.name === 'provider:anthropic')!.sealed;
    expect(sealedAnthropic.split('.')[1]).toBe(new SecretCipher(newKey).keyId);

    // The new key alone opens the new value but names both key ids for the old one.
    const newOnly = new DatabaseSecretStore(pool, keyring(newKey));
    expect(await newOnly.get('provider:anthropic')).toBe(anthropicSecret);
    const error = await failureOf(newOnly.get('provider:openai'));
    expect(error.message).toContain(`encrypted with key id ${new SecretCipher(oldKey).keyId}`);
    expect(error.message).toContain(`SWITCHYARD_SECRET_KEY is key id ${new SecretCipher(newKey).keyId}`);
  });
});

describe('openDatabaseSecrets', () => {
  it('opens an empty database with any well-formed key, and a filled one with the key it was sealed with', async () => {
    const pool = await migratedPool();
    const key = generateSecretKey();
    const empty = await openDatabaseSecrets(pool, { SWITCHYARD_SECRET_KEY: key });
    await empty.set('provider:openai', openaiSecret);
    const reopened = await openDatabaseSecrets(pool, { SWITCHYARD_SECRET_KEY: key });
    expect(await reopened.get('provider:openai')).toBe(openaiSecret);
  });

  it('says how to make a key when it is missing or malformed, without repeating it', async () => {
    const pool = await migratedPool();
    const missing = await failureOf(openDatabaseSecrets(pool, {}));
    expect(missing).toBeInstanceOf(SecretKeyError);
    expect(missing.message).toBe(
      'SWITCHYARD_SECRET_KEY is not set. Generate one with `switchyard secret-key generate`.',
    );

    const malformedKey = 'not-a-real-key-but-a-password-Zq7';
    const malformed = await failureOf(openDatabaseSecrets(pool, { SWITCHYARD_SECRET_KEY: malformedKey }));
    expect(malformed).toBeInstanceOf(SecretKeyError);
    expect(malformed.message).toMatch(/^SWITCHYARD_SECRET_KEY must be 32 random bytes in base64/);
    expect(malformed.message).toContain('switchyard secret-key generate');
    expect(malformed.message).not.toContain(malformedKey);

    const previous = await failureOf(
      openDatabaseSecrets(pool, {
        SWITCHYARD_SECRET_KEY: generateSecretKey(),
        SWITCHYARD_SECRET_KEY_PREVIOUS: malformedKey,
      }),
    );
    expect(previous).toBeInstanceOf(SecretKeyError);
    expect(previous.message).toMatch(/^SWITCHYARD_SECRET_KEY_PREVIOUS must be 32 random bytes in base64/);
    expect(previous.message).not.toContain(malformedKey);
  });

  it('refuses to start with a key the stored values were not sealed with, naming key ids only', async () => {
    const pool = await migratedPool();
    const rightKey = generateSecretKey();
    const wrongKey = generateSecretKey();
    const store = new DatabaseSecretStore(pool, keyring(rightKey));
    await store.set('provider:openai', openaiSecret);
    await store.set('provider:anthropic', anthropicSecret);

    const error = await failureOf(openDatabaseSecrets(pool, { SWITCHYARD_SECRET_KEY: wrongKey }));
    expect(error.message).toBe(
      `Stored secrets were encrypted with another key: key id ${new SecretCipher(rightKey).keyId} ` +
        `(provider:anthropic, provider:openai); SWITCHYARD_SECRET_KEY is key id ${new SecretCipher(wrongKey).keyId} ` +
        '(SWITCHYARD_SECRET_KEY_PREVIOUS is not set). Start with the key they were encrypted with; while rotating ' +
        'to a new one, set the old one as SWITCHYARD_SECRET_KEY_PREVIOUS.',
    );
    for (const secret of [rightKey, wrongKey, openaiSecret, anthropicSecret])
      expect(error.message).not.toContain(secret);

    // The right key as the previous one is a rotation in progress: it starts.
    const rotating = await openDatabaseSecrets(pool, {
      SWITCHYARD_SECRET_KEY: wrongKey,
      SWITCHYARD_SECRET_KEY_PREVIOUS: rightKey,
    });
    expect(await rotating.get('provider:anthropic')).toBe(anthropicSecret);
  });

  it('refuses to start when the value it opens was altered, or when a row holds something not encrypted', async () => {
    const pool = await migratedPool();
    const key = generateSecretKey();
    const store = new DatabaseSecretStore(pool, keyring(key));
    await store.set('provider:anthropic', anthropicSecret);
    const [version, keyId, payload] = (await rawRows(pool))[0]!.sealed.split('.') as [string, string, string];
    const bytes = Buffer.from(payload, 'base64url');
    bytes[bytes.length - 1]! ^= 0x01;
    await pool.query('UPDATE sealed_secrets SET sealed = $1', [`${version}.${keyId}.${bytes.toString('base64url')}`]);
    const tampered = await failureOf(openDatabaseSecrets(pool, { SWITCHYARD_SECRET_KEY: key }));
    expect(tampered.message).toMatch(/^The stored secret "provider:anthropic" does not open: .*integrity check/);

    await pool.query("UPDATE sealed_secrets SET sealed = 'sk-in-clear-secret'");
    const clear = await failureOf(openDatabaseSecrets(pool, { SWITCHYARD_SECRET_KEY: key }));
    expect(clear.message).toMatch(/^Stored secrets are not encrypted values: provider:anthropic\. Enter them again/);
    expect(clear.message).not.toContain('sk-in-clear-secret');
  });
});
