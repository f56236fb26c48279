// Which database a command uses (decision 017): `--database-url`, else SWITCHYARD_DATABASE_URL, else none — the
// SQLite file in the data folder. A PostgreSQL URL carries a password, so it is never printed as given: every
// message and log line shows redactDatabaseUrl's form, and an unreadable URL is described, not repeated.

export const databaseUrlVariable = 'SWITCHYARD_DATABASE_URL';

const example = 'postgres://user:password@host:5432/database';
const schemes = ['postgres:', 'postgresql:'];
/** Query parameters that node-postgres reads as credentials. */
const secretParameters = ['password', 'sslpassword', 'sslkey'];
const hidden = '***';

/** The URL given is not one Switchyard can use; the message names where it came from, never its password. */
export class DatabaseUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUrlError';
  }
}

/**
 * The PostgreSQL URL to use, or undefined for SQLite. The flag wins over the variable; an empty variable counts
 * as unset (as `VAR= switchyard …` means), an empty flag is a mistake.
 */
export function databaseUrlFrom(
  flag: string | undefined,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (flag !== undefined) return checkDatabaseUrl(flag, '--database-url');
  const variable = env[databaseUrlVariable];
  if (variable === undefined || variable.trim() === '') return undefined;
  return checkDatabaseUrl(variable, databaseUrlVariable);
}

function checkDatabaseUrl(value: string, source: string): string {
  const text = value.trim();
  if (text === '') throw new DatabaseUrlError(`${source} is empty; write it like ${example}.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not repeated: it may be a password pasted into the wrong place.
    throw new DatabaseUrlError(
      `${source} is not a URL; write it like ${example} (percent-encode @, : and / in the password).`,
    );
  }
  if (!schemes.includes(url.protocol)) {
    // Not even the scheme is repeated: `secret:rest` parses as a URL whose scheme is a password's first half.
    throw new DatabaseUrlError(
      `${source} must be a PostgreSQL URL starting with postgres:// or postgresql://; write it like ${example}. ` +
        'Without one, Switchyard uses the SQLite file in its data folder.',
    );
  }
  return text;
}

/** The URL with its password (and any credential in the query) replaced by `***`: safe for messages and logs. */
export function redactDatabaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return '(a database URL that is not a valid URL)';
  }
  if (url.password !== '') url.password = hidden;
  for (const name of [...url.searchParams.keys()]) {
    if (secretParameters.includes(name.toLowerCase())) url.searchParams.set(name, hidden);
  }
  return url.href;
}
