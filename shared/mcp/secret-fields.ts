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

/** The NAME of a value that is exactly `${secret:NAME}`, else undefined. */
export function secretReferenceName(value: unknown): string | undefined {
  return typeof value === 'string' ? /^\$\{secret:([^}]*)\}$/.exec(value.trim())?.[1]?.trim() : undefined;
}

/** How a stored secret is shown again: its last four characters, and only those of a value long enough to spare them. */
export function maskedSecret(value: string): string {
  return value.length >= 12 ? `••••${value.slice(-4)}` : '••••';
}

/** The fields whose values can be secrets: env (stdio) and headers (remote). */
export type SecretField = 'env' | 'headers';
export const secretFields: readonly SecretField[] = ['env', 'headers'];

/** A secret value found in a config: its server, field and variable or header name. */
export interface FoundSecret {
  server: string;
  field: SecretField;
  key: string;
}

/** The values of secret-looking variables and headers in `servers` (by name) that are not references already. */
export function findSecrets(servers: Record<string, unknown>): FoundSecret[] {
  const found: FoundSecret[] = [];
  for (const [server, entry] of Object.entries(servers)) {
    for (const field of secretFields) {
      for (const [key, value] of Object.entries(objectOf(objectOf(entry)[field]))) {
        if (typeof value === 'string' && value !== '' && looksSecret(key) && !isReferenceOnly(value)) {
          found.push({ server, field, key });
        }
      }
    }
  }
  return found;
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
