// Model aliases: a fixed name a tool sends (`claude-sonnet-4-5`, `gpt-5-codex`) standing for a `<provider>/<model>`
// of the user's choosing. The name rule lives here so the gateway, the CLI and the UI's bridge check the same thing.

/** Letters, digits, `.`, `_`, `-`, `:` and `@`, starting with a letter or digit; never `/` (that names a provider). */
export const aliasNamePattern = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;
export const maxAliasNameLength = 100;
export const aliasNameRule = `use 1–${maxAliasNameLength} letters, digits, ".", "_", "-", ":" or "@", starting with a letter or digit`;

/** `<provider>/<model>`: the provider part non-empty and without spaces, the model part non-empty. */
export const aliasTargetPattern = /^[^/\s]+\/\S+$/;
export const maxAliasTargetLength = 300;

export interface ModelAliasInfo {
  /** What callers send as `model`. */
  name: string;
  /** The `<provider>/<model>` it stands for. */
  target: string;
  /** ISO 8601. */
  created_at: string;
}

/** Why `name` cannot be an alias, or null when it can. */
export function aliasNameProblem(name: string): string | null {
  if (name.length > 0 && name.length <= maxAliasNameLength && aliasNamePattern.test(name)) return null;
  if (name.includes('/'))
    return `"${name}" has a "/": that names a model of a provider; an alias is one name (${aliasNameRule})`;
  return `"${name}" cannot be an alias name: ${aliasNameRule}`;
}

/** Why `target` cannot be an alias's target, or null when it can. */
export function aliasTargetProblem(target: string): string | null {
  if (target.length <= maxAliasTargetLength && aliasTargetPattern.test(target)) return null;
  return `the target "${target}" must be "<provider>/<model>", e.g. openai/gpt-4o (an alias cannot point to another alias)`;
}
