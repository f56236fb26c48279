// Choosing the database (flag, then SWITCHYARD_DATABASE_URL, then SQLite) and showing its URL without a password.

import { describe, expect, it } from 'vitest';
import { DatabaseUrlError, databaseUrlFrom, databaseUrlVariable, redactDatabaseUrl } from './database-url.js';

const password = 'Hunter2-s3cret';
const url = `postgres://switchyard:${password}@db.internal:5432/switchyard`;

function errorOf(run: () => unknown): DatabaseUrlError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DatabaseUrlError);
    return error as DatabaseUrlError;
  }
  throw new Error('expected a DatabaseUrlError');
}

describe('databaseUrlFrom', () => {
  it('takes the flag before the variable, the variable before nothing, and nothing as SQLite', () => {
    const other = 'postgresql://other@db2/other';
    expect(databaseUrlFrom(url, { [databaseUrlVariable]: other })).toBe(url);
    expect(databaseUrlFrom(undefined, { [databaseUrlVariable]: other })).toBe(other);
    expect(databaseUrlFrom(undefined, {})).toBeUndefined();
    expect(databaseUrlFrom(undefined, { [databaseUrlVariable]: '  ' })).toBeUndefined();
  });

  it('accepts both PostgreSQL schemes, a socket folder as host, and trims what a shell or file left around it', () => {
    expect(databaseUrlFrom(` ${url}\n`, {})).toBe(url);
    expect(databaseUrlFrom('postgresql://app@%2Fvar%2Frun%2Fpostgresql/app', {})).toBe(
      'postgresql://app@%2Fvar%2Frun%2Fpostgresql/app',
    );
    expect(databaseUrlFrom('postgres:///app?host=/var/run/postgresql', {})).toBe(
      'postgres:///app?host=/var/run/postgresql',
    );
  });

  it('refuses an empty flag, another scheme and a non-URL, saying where it came from and never repeating it', () => {
    expect(errorOf(() => databaseUrlFrom('', {})).message).toMatch(/^--database-url is empty; write it like postgres:/);

    const mysql = errorOf(() => databaseUrlFrom(`mysql://root:${password}@db/app`, {}));
    expect(mysql.message).toMatch(
      /^--database-url must be a PostgreSQL URL starting with postgres:\/\/ or postgresql:\/\//,
    );
    expect(mysql.message).toContain('SQLite file');

    // A password pasted where the URL belongs: `first:second` parses as scheme and path.
    const pasted = errorOf(() => databaseUrlFrom(undefined, { [databaseUrlVariable]: `abc:${password}` }));
    expect(pasted.message).toMatch(/^SWITCHYARD_DATABASE_URL must be a PostgreSQL URL/);
    const notUrl = errorOf(() => databaseUrlFrom(`${password} db.internal`, {}));
    expect(notUrl.message).toMatch(/^--database-url is not a URL; write it like postgres:/);

    for (const error of [mysql, pasted, notUrl]) {
      expect(error.message).not.toContain(password);
      expect(error.message).not.toContain('abc');
    }
  });
});

describe('redactDatabaseUrl', () => {
  it('replaces the password and keeps what identifies the database', () => {
    expect(redactDatabaseUrl(url)).toBe('postgres://switchyard:***@db.internal:5432/switchyard');
    expect(redactDatabaseUrl('postgresql://:p%40ss@db/app')).toBe('postgresql://:***@db/app');
  });

  it('leaves a URL without credentials as it is', () => {
    expect(redactDatabaseUrl('postgres://app@db/app?sslmode=require')).toBe('postgres://app@db/app?sslmode=require');
  });

  it('replaces credentials given as query parameters too', () => {
    const redacted = redactDatabaseUrl(`postgres://app@db/app?sslmode=verify-full&password=${password}&sslpassword=k`);
    expect(redacted).toBe('postgres://app@db/app?sslmode=verify-full&password=***&sslpassword=***');
  });

  it('describes a value that is not a URL instead of repeating it', () => {
    expect(redactDatabaseUrl(`${password} db.internal`)).toBe('(a database URL that is not a valid URL)');
  });
});
