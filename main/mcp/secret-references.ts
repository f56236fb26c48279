// `${secret:NAME}` in mcp_settings.json: a value kept in the secret store (the OS keychain, or the 0600 file where
// no keychain answers) and named in the file, which other apps read and people paste into issues. What a NAME may
// be, how it is written, under which account of the store it lives, and which names an entry uses. Pure.

/** Letters, digits, `.`, `_` and `-`, starting with a letter or digit; at most 128 characters. */
export const secretNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const allowed = 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 128 characters';

/** Why `name` cannot name a secret, or undefined when it can. */
export function secretNameProblem(name: string): string | undefined {
  return secretNamePattern.test(name) ? undefined : `"${name}" is not a valid secret name: use ${allowed}`;
}

export function secretReference(name: string): string {
  return `\${secret:${name}}`;
}

/**
 * The store's account for a secret of mcp_settings.json: `mcp/` before the name, so that no name can reach a
 * provider key (`provider:…`) or a sign-in (`mcp-oauth:…`) kept in the same store.
 */
export function secretAccountFor(name: string): string {
  return `mcp/${name}`;
}

const reference = /\$\{secret:([^}]*)\}/g;

/** Every `${secret:NAME}` in any string of `value` (an entry, a whole settings object), each name once. */
export function referencedSecretNames(value: unknown): string[] {
  const names = new Set<string>();
  const visit = (item: unknown) => {
    if (typeof item === 'string') for (const match of item.matchAll(reference)) names.add(match[1]!.trim());
    else if (Array.isArray(item)) item.forEach(visit);
    else if (item !== null && typeof item === 'object') Object.values(item).forEach(visit);
  };
  visit(value);
  return [...names];
}

/** A new name for the secret of `field` of server `server` (`github.GITHUB_TOKEN`), none of `taken`. */
export function newSecretName(server: string, field: string, taken: ReadonlySet<string>): string {
  const base = `${server}.${field}`
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 120);
  const stem = base === '' ? 'secret' : base;
  let name = stem;
  for (let suffix = 2; taken.has(name); suffix++) name = `${stem}-${suffix}`;
  return name;
}
