// Which environment variables and headers hold secrets, by their names: the MCP screen's form marks them secret by
// default and `mcp import` offers to move their values into the secret store. Names rather than values, because a
// value tells nothing reliable (a token looks like any other string). Pure: main and the renderer both use it.

/** Anywhere in the name: `OPENAI_API_KEY`, `ApiToken`, `Authorization`. */
const secretParts = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTHORIZATION|COOKIE/i;
/** Only as a whole word of the name (`GITHUB_PAT`, `X-Auth`), since they are inside ordinary words too (PATH). */
const secretWords = new Set(['PAT', 'AUTH', 'PASS', 'PWD']);
/** Names with one of the parts above that hold where a secret is, not the secret. */
const notSecret = /^KEYBOARD|_KEY_(ID|PATH|FILE)$|^KEY_(ID|PATH|FILE)$/i;

/** `GITHUB_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`, `Authorization`, `X-Api-Key`, `Cookie`… */
export function looksSecret(name: string): boolean {
  const trimmed = name.trim().replaceAll('-', '_');
  if (trimmed === '' || notSecret.test(trimmed)) return false;
  return secretParts.test(trimmed) || trimmed.split('_').some((word) => secretWords.has(word.toUpperCase()));
}

/** A value that names where it comes from (`${env:VAR}`, `${secret:NAME}`) rather than holding a secret itself. */
export function isReferenceOnly(value: string): boolean {
  return /^\s*(Bearer\s+)?\$\{(env|secret):[^}]*\}\s*$/i.test(value);
}

/** How a stored secret is shown again: its last four characters, and only those of a value long enough to spare them. */
export function maskedSecret(value: string): string {
  return value.length >= 12 ? `••••${value.slice(-4)}` : '••••';
}
