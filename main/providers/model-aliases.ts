// Model aliases: the fixed names tools send (`claude-sonnet-4-5`, `gpt-5-codex`) mapped to a `<provider>/<model>`
// of the user's choosing, or to a group of them tried in the order a strategy gives (decision 029). Stored in the database (the CLI, the UI and every gateway process share them) and cached
// here until the database says something changed, so a lookup costs a Map read and one `PRAGMA data_version`.

import {
  aliasGroupProblem,
  aliasNameProblem,
  ApiError,
  singleTarget,
  type AliasGroup,
  type ModelAliasInfo,
} from '../../shared/api/index.js';
import type { Store } from '../store/index.js';

export type AliasStore = Pick<Store, 'listModelAliases' | 'setModelAlias' | 'removeModelAlias' | 'changeVersion'>;

export interface AliasChange {
  alias: ModelAliasInfo;
  /** What the alias stood for before; undefined when it was created. */
  previous: ModelAliasInfo | undefined;
}

export class ModelAliases {
  private readonly store: AliasStore;
  private readonly now: () => number;
  private groups = new Map<string, AliasGroup>();
  private loadedVersion: number | undefined;

  constructor(store: AliasStore, options: { now?: () => number } = {}) {
    this.store = store;
    this.now = options.now ?? Date.now;
  }

  /** By name. */
  list(): ModelAliasInfo[] {
    return this.store.listModelAliases();
  }

  /** The `<provider>/<model>` that `name` stands for (a group's first target), or undefined when it is no alias. */
  targetOf(name: string): string | undefined {
    return this.groupOf(name)?.targets[0];
  }

  /** The targets, strategy and weights `name` stands for, or undefined when it is no alias. */
  groupOf(name: string): AliasGroup | undefined {
    const version = this.store.changeVersion();
    if (version !== this.loadedVersion) {
      this.groups = new Map(this.store.listModelAliases().map((alias) => [alias.name, alias]));
      this.loadedVersion = version;
    }
    return this.groups.get(name);
  }

  /**
   * Creates the alias or points it elsewhere: one target (a string) or a group. Throws ApiError(400) for a bad
   * name, a target that is no model, an unknown strategy or weights that do not fit.
   */
  async set(name: string, target: string | AliasGroup): Promise<AliasChange> {
    const group = typeof target === 'string' ? singleTarget(target) : target;
    const problem = aliasNameProblem(name) ?? aliasGroupProblem(group);
    if (problem) throw new ApiError(400, `${problem[0]!.toUpperCase()}${problem.slice(1)}.`);
    const createdAt = this.now();
    const previous = await this.store.setModelAlias(name, group, createdAt);
    const alias = {
      name,
      target: group.targets[0]!,
      ...group,
      created_at: previous?.created_at ?? new Date(createdAt).toISOString(),
    };
    return { alias, previous };
  }

  /** False when there was no such alias. */
  async remove(name: string): Promise<boolean> {
    return this.store.removeModelAlias(name);
  }
}
