// The connections of one instance to its PostgreSQL database (decision 017): one pool for the store's queries and,
// apart from it, one client that listens for changes. Both parse bigint (int8) as a JavaScript number through
// their own type table, never pg's global one, so nothing else in the process that uses pg is affected. Amounts
// are exact below 2^53 (milliseconds, tokens, nano-dollars up to $9M). TLS follows the URL's `sslmode`, as pg
// reads it from the connection string.

import pg from 'pg';
import { redactDatabaseUrl } from '../database-url.js';

const int8Oid = 20;

/** How long a new connection may take before the query that needed it fails. */
export const connectionTimeoutMs = 5_000;

/** One pool per process: ten connections by default (decision 017). */
export const defaultPoolSize = 10;

function numericTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(int8Oid, 'text', (text: string) => Number(text));
  return types;
}

export function createPool(url: string, max = defaultPoolSize): pg.Pool {
  return new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: connectionTimeoutMs,
    types: numericTypes(),
  });
}

export function createClient(url: string): pg.Client {
  return new pg.Client({ connectionString: url, connectionTimeoutMillis: connectionTimeoutMs, types: numericTypes() });
}

/**
 * An error of the driver with any copy of the password taken out: pg's messages do not carry the URL, but a
 * malformed URL's parse error can, and an error travels on to logs and the terminal.
 */
export function withoutSecret(error: unknown, url: string, doing: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  let secrets: string[];
  try {
    const parsed = new URL(url);
    secrets = [parsed.password, decodeURIComponent(parsed.password), parsed.searchParams.get('password') ?? ''];
  } catch {
    secrets = [url];
  }
  let safe = message;
  for (const secret of secrets.filter((value) => value.length > 0)) safe = safe.split(secret).join('***');
  const wrapped = new Error(`${doing} (${redactDatabaseUrl(url)}): ${safe}`);
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== undefined) Object.assign(wrapped, { code });
  return wrapped;
}
