// `switchyard secret-key rotate` (main/cli/secret-key-commands.ts), run in-process with captured output against a
// real throwaway PostgreSQL (test/support/postgres.ts): values sealed under the previous key end up under the new
// key alone, in one transaction, never in clear and never printed.

import { Command } from 'commander';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/postgres.js';
import {
  DatabaseSecretStore,
  generateSecretKey,
  openDatabaseSecrets,
  SecretCipher,
  SecretKeyring,
} from '../secrets/index.js';
import { migratePostgres, postgresSchemaVersion } from '../store/index.js';
import type { Output } from './output.js';
import { registerSecretKeyCommands } from './secret-key-commands.js';

const secrets: Record<string, string> = {
  'provider:anthropic': 'sk-ant-ROTATE-secret-anthropic',
  'provider:gemini': 'AIza-ROTATE-secret-gemini',
  'provider:openai': 'sk-proj-ROTATE-secret-openai',
};
const oldKey = generateSecretKey();
const newKey = generateSecretKey();
const oldId = new SecretCipher(oldKey).keyId;
const newId = new SecretCipher(newKey).keyId;

let postgres: TestPostgres;
const pools: pg.Pool[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
});
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await postgres?.stop();
});

async function database(options: { migrated: boolean } = { migrated: true }): Promise<{ url: string; pool: pg.Pool }> {
  const url = await postgres.createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  if (options.migrated) await migratePostgres(pool);
  return { url, pool };
}

async function sealAll(pool: pg.Pool, key: string, names = Object.keys(secrets)): Promise<void> {
  const store = new DatabaseSecretStore(pool, new SecretKeyring(new SecretCipher(key)));
  for (const name of names) await store.set(name, secrets[name]!);
}

async function table(pool: pg.Pool): Promise<{ name: string; sealed: string; updated_at: string }[]> {
  return (await pool.query('SELECT name, sealed, updated_at FROM sealed_secrets ORDER BY name')).rows;
}

interface Run {
  out: string;
  err: string;
  error?: Error;
}

/** `switchyard secret-key rotate …` with these environment variables (and none of the machine's). */
async function rotate(env: Record<string, string>, ...args: string[]): Promise<Run> {
  vi.stubEnv('SWITCHYARD_SECRET_KEY', env.SWITCHYARD_SECRET_KEY ?? '');
  vi.stubEnv('SWITCHYARD_SECRET_KEY_PREVIOUS', env.SWITCHYARD_SECRET_KEY_PREVIOUS ?? '');
  vi.stubEnv('SWITCHYARD_DATABASE_URL', env.SWITCHYARD_DATABASE_URL ?? '');
  const run: Run = { out: '', err: '' };
  const output: Output = { out: (text) => (run.out += `${text}\n`), err: (text) => (run.err += `${text}\n`) };
  const program = new Command('switchyard').exitOverride().configureOutput({
    writeOut: (text) => output.out(text),
    writeErr: (text) => output.err(text),
  });
  registerSecretKeyCommands(program, {
    output,
    openApp: () => {
      throw new Error('secret-key commands open no app');
    },
  });
  try {
    await program.parseAsync(['node', 'switchyard', 'secret-key', 'rotate', ...args]);
  } catch (error) {
    run.error = error as Error;
  }
  // Whatever happened, nothing printed or thrown carries a provider secret, a key or the database's password.
  const databasePassword = new URL(postgres.url).password;
  for (const text of [run.out, run.err, run.error?.message ?? '']) {
    for (const secret of [...Object.values(secrets), oldKey, newKey, databasePassword]) {
      expect(text).not.toContain(secret);
    }
  }
  return run;
}

describe('switchyard secret-key rotate', () => {
  it('re-encrypts every value under the new key, so the new key alone opens them; a second run changes nothing', async () => {
    const { url, pool } = await database();
    await sealAll(pool, oldKey);

    const first = await rotate(
      { SWITCHYARD_SECRET_KEY: newKey, SWITCHYARD_SECRET_KEY_PREVIOUS: oldKey },
      '--database-url',
      url,
    );
    expect(first.error).toBeUndefined();
    expect(first.out).toBe(
      `Re-encrypted 3 stored secrets with SWITCHYARD_SECRET_KEY (key id ${newId}); 0 already were.\n`,
    );
    expect(first.err).toBe(
      'Every stored secret now opens with SWITCHYARD_SECRET_KEY alone: restart each instance without ' +
        'SWITCHYARD_SECRET_KEY_PREVIOUS.\n',
    );

    const rows = await table(pool);
    expect(rows.map((row) => row.name)).toEqual(Object.keys(secrets).sort());
    for (const row of rows) {
      expect(row.sealed.startsWith(`v1.${newId}.`)).toBe(true);
      expect(row.sealed).not.toContain('ROTATE');
    }
    const newOnly = await openDatabaseSecrets(pool, { SWITCHYARD_SECRET_KEY: newKey });
    for (const [name, secret] of Object.entries(secrets)) expect(await newOnly.get(name)).toBe(secret);

    // Again, with the database from the environment this time: nothing left to do, nothing written.
    const second = await rotate({
      SWITCHYARD_SECRET_KEY: newKey,
      SWITCHYARD_SECRET_KEY_PREVIOUS: oldKey,
      SWITCHYARD_DATABASE_URL: url,
    });
    expect(second.error).toBeUndefined();
    expect(second.out).toBe(
      `Re-encrypted 0 stored secrets with SWITCHYARD_SECRET_KEY (key id ${newId}); 3 already were.\n`,
    );
    expect(await table(pool)).toEqual(rows);

    // And with the new key alone, once the instances dropped the previous one.
    const third = await rotate({ SWITCHYARD_SECRET_KEY: newKey }, '--database-url', url);
    expect(third.out).toMatch(/^Re-encrypted 0 stored secrets .*; 3 already were\.\n$/);
    expect(third.err).toBe('');
  });

  it('re-encrypts only what is still under the previous key', async () => {
    const { url, pool } = await database();
    await sealAll(pool, oldKey, ['provider:anthropic', 'provider:openai']);
    // An instance already started with the new key (and the old one as previous) stored this one.
    await sealAll(pool, newKey, ['provider:gemini']);
    const geminiBefore = (await table(pool)).find((row) => row.name === 'provider:gemini');

    const run = await rotate(
      { SWITCHYARD_SECRET_KEY: newKey, SWITCHYARD_SECRET_KEY_PREVIOUS: oldKey },
      '--database-url',
      url,
    );
    expect(run.out).toMatch(/^Re-encrypted 2 stored secrets .*; 1 already was\.\n$/);
    expect((await table(pool)).find((row) => row.name === 'provider:gemini')).toEqual(geminiBefore);
  });

  it('changes nothing when a value does not open with either key, naming key ids', async () => {
    const { url, pool } = await database();
    // Sorted by name, the two values under the old key come before the one under a third key, so the rotation
    // has re-encrypted them when it fails: the transaction must undo that.
    await sealAll(pool, oldKey, ['provider:anthropic', 'provider:gemini']);
    const strayKey = generateSecretKey();
    await sealAll(pool, strayKey, ['provider:openai']);
    const before = await table(pool);

    const stray = await rotate(
      { SWITCHYARD_SECRET_KEY: newKey, SWITCHYARD_SECRET_KEY_PREVIOUS: oldKey },
      '--database-url',
      url,
    );
    expect(stray.out).toBe('');
    expect(stray.error?.message).toBe(
      `Nothing was re-encrypted: The stored secret "provider:openai" was encrypted with key id ` +
        `${new SecretCipher(strayKey).keyId}, but SWITCHYARD_SECRET_KEY is key id ${newId} and ` +
        `SWITCHYARD_SECRET_KEY_PREVIOUS is key id ${oldId}. Start with the key it was encrypted with (during a ` +
        'rotation, as SWITCHYARD_SECRET_KEY_PREVIOUS), or enter the secret again.',
    );
    expect(await table(pool)).toEqual(before);

    // A wrong previous key: the first value already fails.
    const wrongPrevious = await rotate(
      { SWITCHYARD_SECRET_KEY: newKey, SWITCHYARD_SECRET_KEY_PREVIOUS: generateSecretKey() },
      '--database-url',
      url,
    );
    expect(wrongPrevious.error?.message).toMatch(
      new RegExp(
        `^Nothing was re-encrypted: The stored secret "provider:anthropic" was encrypted with key id ${oldId}`,
      ),
    );
    // No previous key at all.
    const noPrevious = await rotate({ SWITCHYARD_SECRET_KEY: newKey }, '--database-url', url);
    expect(noPrevious.error?.message).toContain('(SWITCHYARD_SECRET_KEY_PREVIOUS is not set)');
    expect(await table(pool)).toEqual(before);
  });

  it('migrates a database that has no tables yet, then finds nothing to re-encrypt', async () => {
    const { url, pool } = await database({ migrated: false });
    const run = await rotate({ SWITCHYARD_SECRET_KEY: newKey }, '--database-url', url);
    expect(run.error).toBeUndefined();
    expect(run.out).toBe(
      `Re-encrypted 0 stored secrets with SWITCHYARD_SECRET_KEY (key id ${newId}); 0 already were.\n`,
    );
    expect(await postgresSchemaVersion(pool)).toBeGreaterThanOrEqual(10);
  });

  it('needs a PostgreSQL database and a well-formed key, and says so', async () => {
    const noDatabase = await rotate({ SWITCHYARD_SECRET_KEY: newKey });
    expect(noDatabase.error?.message).toMatch(
      /^secret-key rotate needs the team server's PostgreSQL database: give --database-url postgres:\/\/… or set SWITCHYARD_DATABASE_URL\./,
    );

    const sqlite = await rotate({ SWITCHYARD_SECRET_KEY: newKey }, '--database-url', 'sqlite:///data/switchyard.db');
    expect(sqlite.error?.message).toMatch(/^--database-url must be a PostgreSQL URL/);

    const { url } = await database();
    const noKey = await rotate({}, '--database-url', url);
    expect(noKey.error?.message).toBe(
      'SWITCHYARD_SECRET_KEY is not set. Generate one with `switchyard secret-key generate`.',
    );
  });

  it('names the database without its password when it cannot be reached', async () => {
    const unreachable = new URL(postgres.url);
    unreachable.port = '1';
    const run = await rotate({ SWITCHYARD_SECRET_KEY: newKey }, '--database-url', unreachable.href);
    const redacted = new URL(unreachable.href);
    redacted.password = '***';
    expect(run.error?.message).toMatch(
      new RegExp(`^The database at ${redacted.href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `),
    );
    expect(run.error?.message).toContain('ECONNREFUSED');
  });
});
