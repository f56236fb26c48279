// `switchyard secret-key …`: the key in SWITCHYARD_SECRET_KEY that encrypts provider secrets stored in a shared
// PostgreSQL database (decision 017).
//   generate  prints a new key; it opens no data folder and no database: the key must exist before either.
//   rotate    re-encrypts every stored secret under SWITCHYARD_SECRET_KEY, opening the others with
//             SWITCHYARD_SECRET_KEY_PREVIOUS; PostgreSQL only (SQLite keeps secrets in the OS keychain).

import type { Command } from 'commander';
import {
  generateSecretKey,
  previousSecretKeyVariable,
  resealSecrets,
  SecretKeyring,
  secretKeyVariable,
} from '../secrets/index.js';
import { databaseUrlFrom, databaseUrlVariable, redactDatabaseUrl } from '../store/index.js';
import type { CommandContext } from './command-context.js';
import { databaseUrlOption } from './shared-options.js';

const connectTimeoutMs = 5_000;

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function registerSecretKeyCommands(program: Command, context: CommandContext): void {
  const { output } = context;
  const secretKey = program.command('secret-key').description(`the key that encrypts stored provider secrets`);
  secretKey
    .command('generate')
    .description(`print a new random key for ${secretKeyVariable} (32 bytes, base64); nothing is stored`)
    .action(() => {
      // Only the key on standard output, so that `export SWITCHYARD_SECRET_KEY=$(switchyard secret-key generate)`
      // and redirections into a secrets file work.
      output.out(generateSecretKey());
    });

  secretKey
    .command('rotate')
    .description(
      `re-encrypt every provider secret stored in the database with ${secretKeyVariable}, opening those not yet ` +
        `re-encrypted with ${previousSecretKeyVariable} (PostgreSQL only; one transaction; safe to run again)`,
    )
    .addOption(databaseUrlOption())
    .action(async (options: { databaseUrl?: string }) => {
      const databaseUrl = databaseUrlFrom(options.databaseUrl);
      if (databaseUrl === undefined) {
        throw new Error(
          `secret-key rotate needs the team server's PostgreSQL database: give --database-url postgres://… or set ` +
            `${databaseUrlVariable}. Without one, provider secrets are in this machine's keychain (or a 0600 file), ` +
            `not encrypted with ${secretKeyVariable}, so there is nothing to rotate.`,
        );
      }
      // The keys first: a missing or malformed one is reported without touching the database.
      const keyring = SecretKeyring.fromEnv(process.env);
      // Loaded here: every command, `serve` included, registers this one, and only this one needs the driver.
      const [{ default: pg }, { migratePostgres }] = await Promise.all([import('pg'), import('../store/index.js')]);
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: connectTimeoutMs });
      // An idle connection that breaks emits on the pool; the query that needs it reports the failure instead.
      pool.on('error', () => {});
      try {
        await migratePostgres(pool).catch((error: unknown) => {
          throw new Error(`The database at ${redactDatabaseUrl(databaseUrl)}: ${(error as Error).message}`, {
            cause: error,
          });
        });
        const outcome = await resealSecrets(pool, keyring);
        output.out(
          `Re-encrypted ${count(outcome.resealed, 'stored secret')} with ${secretKeyVariable} (key id ` +
            `${outcome.keyId}); ${outcome.unchanged} already ${outcome.unchanged === 1 ? 'was' : 'were'}.`,
        );
        if (keyring.previous) {
          output.err(
            `Every stored secret now opens with ${secretKeyVariable} alone: restart each instance without ` +
              `${previousSecretKeyVariable}.`,
          );
        }
      } finally {
        await pool.end();
      }
    });
}
