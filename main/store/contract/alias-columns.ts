// The columns of model_aliases, read and written the same way by both engines: an alias's group as two JSON arrays
// and a strategy, beside the first target in `target` (what rows written before groups hold alone).

import { singleTarget, type AliasGroup, type AliasStrategy, type ModelAliasInfo } from '../../../shared/api/index.js';

export interface AliasColumns {
  name: string;
  target: string;
  /** JSON array of `<provider>/<model>`; null for a one-target alias. */
  targets: string | null;
  strategy: string;
  /** JSON array of numbers; null without weights. */
  weights: string | null;
  created_at: number;
}

/** What the store is given: a group, or one target (an alias as it was before groups). */
export function asGroup(target: string | AliasGroup): AliasGroup {
  return typeof target === 'string' ? singleTarget(target) : target;
}

/** A one-target alias keeps `targets` null, so that it reads back exactly as rows written before groups. */
export function aliasColumns(name: string, group: AliasGroup, createdAt: number): AliasColumns {
  const plain = group.targets.length === 1 && group.strategy === 'ordered' && group.weights === null;
  return {
    name,
    target: group.targets[0]!,
    targets: plain ? null : JSON.stringify(group.targets),
    strategy: group.strategy,
    weights: group.weights && JSON.stringify(group.weights),
    created_at: createdAt,
  };
}

export function toAliasInfo(columns: AliasColumns): ModelAliasInfo {
  const group = columns.targets === null ? singleTarget(columns.target) : undefined;
  return {
    name: columns.name,
    target: columns.target,
    targets: group?.targets ?? (JSON.parse(columns.targets!) as string[]),
    strategy: (group?.strategy ?? columns.strategy) as AliasStrategy,
    weights: columns.weights === null ? null : (JSON.parse(columns.weights) as number[]),
    created_at: new Date(columns.created_at).toISOString(),
  };
}
