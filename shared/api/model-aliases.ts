// Model aliases: a fixed name a tool sends (`claude-sonnet-4-5`, `gpt-5-codex`) standing for a `<provider>/<model>`
// of the user's choosing. The name rule lives here so the gateway, the CLI and the UI's bridge check the same thing.

/** Letters, digits, `.`, `_`, `-`, `:` and `@`, starting with a letter or digit; never `/` (that names a provider). */
export const aliasNamePattern = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;
export const maxAliasNameLength = 100;
export const aliasNameRule = `use 1–${maxAliasNameLength} letters, digits, ".", "_", "-", ":" or "@", starting with a letter or digit`;

/** `<provider>/<model>`: the provider part non-empty and without spaces, the model part non-empty. */
export const aliasTargetPattern = /^[^/\s]+\/\S+$/;
export const maxAliasTargetLength = 300;

/** How a group picks among its targets (decision 029). */
export const aliasStrategies = ['ordered', 'weighted', 'least-busy', 'latency', 'cost'] as const;
export type AliasStrategy = (typeof aliasStrategies)[number];

/** What an alias stands for: one target, or a group of them tried in the order its strategy gives. */
export interface AliasGroup {
  /** `<provider>/<model>` each, at least one, no repeats. */
  targets: string[];
  strategy: AliasStrategy;
  /** One positive number per target, only with `weighted`; null otherwise. */
  weights: number[] | null;
}

export interface ModelAliasInfo extends AliasGroup {
  /** What callers send as `model`. */
  name: string;
  /** The first of `targets` (what clients that know one target per alias read). */
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

export const maxAliasTargets = 20;

/** Why the group cannot be an alias's, or null when it can: each target, the strategy, the weights. */
export function aliasGroupProblem(group: AliasGroup): string | null {
  const { targets, strategy, weights } = group;
  if (targets.length === 0) return 'an alias needs at least one target';
  if (targets.length > maxAliasTargets) return `an alias has at most ${maxAliasTargets} targets`;
  for (const target of targets) {
    const problem = aliasTargetProblem(target);
    if (problem) return problem;
  }
  const repeated = targets.find((target, index) => targets.indexOf(target) !== index);
  if (repeated) return `the target "${repeated}" is named twice`;
  if (!(aliasStrategies as readonly string[]).includes(strategy))
    return `the strategy "${strategy}" is none of ${aliasStrategies.join(', ')}`;
  if (weights === null) return null;
  if (strategy !== 'weighted') return 'weights go only with the strategy "weighted"';
  if (weights.length !== targets.length)
    return `${weights.length} weights for ${targets.length} targets: give one weight per target`;
  const bad = weights.find((weight) => !Number.isFinite(weight) || weight <= 0 || weight > 1e6);
  if (bad !== undefined) return `the weight ${bad} is not a positive number (at most 1000000)`;
  return null;
}

/** A one-target alias: tried as aliases always were. */
export function singleTarget(target: string): AliasGroup {
  return { targets: [target], strategy: 'ordered', weights: null };
}

/** `a/m1`, or `a/m1, b/m2 (weighted 3,1)` for a group: how the CLI and the UI show what an alias stands for. */
export function describeAliasGroup(group: AliasGroup): string {
  if (group.targets.length === 1) return group.targets[0]!;
  const weights = group.weights ? ` ${group.weights.join(',')}` : '';
  return `${group.targets.join(', ')} (${group.strategy}${weights})`;
}
