// Which adapter and upstream serve `<provider>/<model>`, and which models exist. Providers come from three
// sources, the first one naming an id wins: the user's configuration (the DB and the keychain), the environment
// (OPENAI_API_KEY…, env-providers.ts) and local servers found running (Ollama, LM Studio, local-providers.ts).
// Each provider's model list is cached so that resolve() stays cheap. Model aliases (model-aliases.ts) are made
// canonical here too, so every route names models the same way.

import type { Logger } from 'pino';
import {
  aliasNameProblem,
  aliasNameRule,
  ApiError,
  type AliasGroup,
  maxAliasNameLength,
  type ModelAliasInfo,
  type ModelInfo,
  type ProviderInfo,
  type ProviderKind,
  type ProviderOrigin,
  type ProviderTestResult,
} from '../../shared/api/index.js';
import type { ProviderAdapter, UpstreamTarget } from './adapter.js';
import { describeTestFailure } from './test-advice.js';

export interface ProviderSource {
  /** From the DB, cheap. */
  listProviders(): ProviderInfo[];
  /** From the keychain (the source caches). */
  getApiKey(providerId: string): Promise<string | null>;
  /** Changes when providers were added or removed by any process. */
  changeVersion(): number;
}

/** A source whose providers are found by looking (probing local servers) rather than configured. */
export interface DiscoveredProviderSource extends ProviderSource {
  /** Whether `providerId` is one this source may find, so that resolving an unknown one is worth a look. */
  mayProvide(providerId: string): boolean;
  /** Looks again where the last look is stale (only at `providerId` when given). Never rejects; quick. */
  refresh(providerId?: string): Promise<void>;
  /** Why `providerId` is not available right now, for the 404 message; null when there is nothing to say. */
  describeAbsent(providerId: string): string | null;
}

/** The user's model aliases (model-aliases.ts). */
export interface AliasSource {
  /** The `<provider>/<model>` that `name` stands for, or undefined when it is no alias. Cheap: called per request. */
  targetOf(name: string): string | undefined;
  /** The group `name` stands for, or undefined when it is no alias. Cheap: called per request. */
  groupOf(name: string): AliasGroup | undefined;
  /** By name. */
  list(): ModelAliasInfo[];
}

export interface ResolvedModel {
  adapter: ProviderAdapter;
  target: UpstreamTarget;
}

export interface ProviderRegistryOptions {
  /** The providers the user configured. */
  source: ProviderSource;
  /** Providers from the environment, used unless a configured provider has the same id. */
  environment?: ProviderSource;
  /** Local servers, used unless a configured or environment provider has the same id. */
  local?: DiscoveredProviderSource;
  /** Names callers may send instead of `<provider>/<model>`; without it, none. */
  aliases?: AliasSource;
  adapters: ProviderAdapter[];
  logger: Logger;
  /** How long a fetched model list is trusted. Default 5 min. */
  modelsTtlMs?: number;
  /** How long a failed fetch is remembered before trying again. Default 30 s. */
  failedModelsTtlMs?: number;
  /** How long resolve() waits for a model list it does not have yet; after that the request passes through. */
  resolveWaitMs?: number;
  /** Hard limit of one GET /models. Default 10 s. */
  modelsFetchTimeoutMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

interface ModelList {
  fetchedAt: number;
  expiresAt: number;
  /** Null when the fetch failed: nothing is known about this provider's models. */
  models: ModelInfo[] | null;
  ids: ReadonlySet<string>;
}

interface ProviderState {
  info: ProviderInfo;
  /** Where its key comes from. */
  owner: ProviderSource;
  /** What makes a cached model list stale when it changes. */
  fingerprint: string;
  list?: ModelList;
  refreshing?: Promise<ModelList>;
}

function fingerprintOf(info: ProviderInfo): string {
  // The key's tail too: a new key may see other models.
  return JSON.stringify([info.kind, info.base_url, info.has_api_key, info.api_key_tail, info.source]);
}

/** Ollama names models `llama3.2:latest` but accepts `llama3.2`. */
function listsModel(ids: ReadonlySet<string>, model: string): boolean {
  return ids.has(model) || (!model.includes(':') && ids.has(`${model}:latest`));
}

export function splitModelId(model: string): { providerId: string; model: string } {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) {
    throw new ApiError(
      400,
      `Model "${model}" must be of the form "<provider>/<model>", for example "openai/gpt-4o-mini".`,
    );
  }
  return { providerId: model.slice(0, slash), model: model.slice(slash + 1) };
}

/** The 404 of a name that is neither an alias nor `<provider>/<model>`: both ways to fix it, when both exist. */
function notAModelMessage(name: string): string {
  // The name is the caller's: a long one is cut, so the answer stays small.
  const shown = name.length > maxAliasNameLength ? `${name.slice(0, maxAliasNameLength)}…` : name;
  const neither = `Model "${shown}" is neither an alias nor "<provider>/<model>".`;
  const asId = 'Name a model as <provider>/<model> (GET /v1/models lists them)';
  if (aliasNameProblem(name) !== null) return `${neither} ${asId}; an alias name would ${aliasNameRule}.`;
  return (
    `${neither} ${asId}, or make "${name}" an alias: switchyard models alias ${name} PROVIDER/MODEL ` +
    '(or in the Providers screen).'
  );
}

/** A model list asked for now, as the result a person reads; an upstream failure is a result, not a throw. */
async function testResultOf(listModels: () => Promise<ModelInfo[]>): Promise<ProviderTestResult> {
  try {
    const models = await listModels();
    return { ok: true, message: `Connected: ${models.length} models.`, modelCount: models.length };
  } catch (error) {
    return { ok: false, message: describeTestFailure(error), modelCount: null };
  }
}

export class ProviderRegistry {
  /** In order of precedence. */
  private readonly sources: { origin: ProviderOrigin; source: ProviderSource }[];
  private readonly local: DiscoveredProviderSource | undefined;
  private readonly aliases: AliasSource | undefined;
  private readonly adapters: ReadonlyMap<ProviderKind, ProviderAdapter>;
  private readonly logger: Logger;
  private readonly modelsTtlMs: number;
  private readonly failedModelsTtlMs: number;
  private readonly resolveWaitMs: number;
  private readonly modelsFetchTimeoutMs: number;
  private readonly now: () => number;
  private states: Map<string, ProviderState> | null = null;
  /** Each source's changeVersion() when `states` was built, in the order of `sources`. */
  private loadedVersions: number[] = [];
  /** The versions just read, compared with loadedVersions: reused, since they are read for every request. */
  private readonly seenVersions: number[] = [];

  constructor(options: ProviderRegistryOptions) {
    this.sources = [{ origin: 'configured', source: options.source }];
    if (options.environment) this.sources.push({ origin: 'environment', source: options.environment });
    if (options.local) this.sources.push({ origin: 'local', source: options.local });
    this.local = options.local;
    this.aliases = options.aliases;
    this.adapters = new Map(options.adapters.map((adapter) => [adapter.kind, adapter]));
    this.logger = options.logger;
    this.modelsTtlMs = options.modelsTtlMs ?? 5 * 60_000;
    this.failedModelsTtlMs = options.failedModelsTtlMs ?? 30_000;
    this.resolveWaitMs = options.resolveWaitMs ?? 3_000;
    this.modelsFetchTimeoutMs = options.modelsFetchTimeoutMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The `<provider>/<model>` a caller's model name stands for. Every route applies it to the names a request
   * carries before anything else looks at them (key rules, prices, the usage log see the canonical name).
   * A name with a `/` is taken as `<provider>/<model>` (resolve() judges it); any other name must be an alias.
   * An alias of several targets (a model group) stays its name: the pipeline plans its targets per request
   * (target-plan.ts). Throws ApiError(404) naming both ways to fix a name that is neither.
   */
  canonicalModel(name: string): string {
    if (name.includes('/')) return name;
    const group = this.aliases?.groupOf(name);
    if (group !== undefined) return group.targets.length === 1 ? group.targets[0]! : name;
    throw new ApiError(404, notAModelMessage(name));
  }

  /** The group an alias stands for (its one target, or several), or undefined when `name` is no alias. */
  aliasGroup(name: string): AliasGroup | undefined {
    return this.aliases?.groupOf(name);
  }

  /** The user's model aliases, by name. */
  listAliases(): ModelAliasInfo[] {
    return this.aliases?.list() ?? [];
  }

  /**
   * The adapter and target for `<provider>/<model>` (split on the first `/`). Throws ApiError: 400 malformed,
   * 404 unknown provider or a model the provider's list does not have, 501 a provider kind without an adapter.
   * When the model list cannot be had, the request passes through and the upstream decides.
   */
  async resolve(modelId: string): Promise<ResolvedModel> {
    const { providerId, model } = splitModelId(modelId);
    let states = this.currentStates();
    if (!states.has(providerId) && this.local?.mayProvide(providerId)) {
      // `ollama/…` while Ollama was not known to run: look once more (a few hundred ms at most).
      await this.local.refresh(providerId);
      states = this.currentStates();
    }
    const state = states.get(providerId);
    if (!state) {
      const configured = [...states.keys()].sort().join(', ') || 'none';
      const absent = this.local?.describeAbsent(providerId);
      throw new ApiError(
        404,
        `Unknown provider "${providerId}". Configured providers: ${configured}.${absent ? ` ${absent}` : ''}`,
      );
    }
    const adapter = this.adapterFor(state.info);
    const target: UpstreamTarget = { provider: state.info, apiKey: await this.apiKeyOf(state), model };

    let ids = await this.knownModelIds(state, adapter, target);
    if (ids && !listsModel(ids, model) && this.now() - (state.list?.fetchedAt ?? 0) > this.failedModelsTtlMs) {
      // A model pulled or enabled since the list was fetched; refetching is limited to once per failedModelsTtlMs.
      ids = await this.refreshedModelIds(state, adapter, target);
    }
    if (ids && !listsModel(ids, model)) {
      throw new ApiError(
        404,
        `Unknown model "${modelId}": provider "${providerId}" does not offer "${model}". GET /api/v1/models lists the models.`,
      );
    }
    return { adapter, target };
  }

  /** Every provider's models, ids as `<provider>/<model>`. A provider that cannot be asked contributes none. */
  async listModels(): Promise<ModelInfo[]> {
    await this.local?.refresh();
    const states = [...this.currentStates().values()];
    const lists = await Promise.all(
      states.map(async (state): Promise<ModelInfo[]> => {
        const adapter = this.adapters.get(state.info.kind);
        if (!adapter) return [];
        let list = state.list;
        if (!list || list.expiresAt <= this.now()) {
          let apiKey: string | null;
          try {
            apiKey = await this.apiKeyOf(state);
          } catch (error) {
            this.logger.warn({ provider: state.info.id, err: (error as Error).message }, 'provider key unavailable');
            return [];
          }
          list = await this.refresh(state, adapter, { provider: state.info, apiKey });
        }
        return (list.models ?? []).map((info) => ({ ...info, id: `${state.info.id}/${info.id}` }));
      }),
    );
    return lists.flat();
  }

  /**
   * "Test the connection": asks one provider for its models now, bypassing the cache (which the answer refreshes).
   * An upstream failure is a result with the message the gateway would give (a 401 upstream, a refused
   * connection…); an unknown provider throws ApiError(404).
   */
  async testProvider(providerId: string): Promise<ProviderTestResult> {
    const state = this.requireState(providerId);
    return testResultOf(() => this.fetchModelsNow(state));
  }

  /**
   * "Test before saving": asks a provider that is not stored (or not as described) for its models, and stores
   * nothing. `apiKey` undefined: the key stored for `keyOf`, so an edit that keeps its key is tested with it.
   */
  async testUnsaved(
    info: ProviderInfo,
    apiKey: string | null | undefined,
    keyOf?: string,
  ): Promise<ProviderTestResult> {
    const stored = keyOf === undefined ? undefined : this.currentStates().get(keyOf);
    const key = apiKey !== undefined ? apiKey : stored ? await this.apiKeyOf(stored) : null;
    const adapter = this.adapterFor(info);
    return testResultOf(() =>
      adapter.listModels({ provider: info, apiKey: key }, AbortSignal.timeout(this.modelsFetchTimeoutMs)),
    );
  }

  /**
   * One provider's models, ids as `<provider>/<model>`: the cached list while it is fresh, else fetched now.
   * Throws ApiError: 404 an unknown provider, the upstream's mapped error when the list cannot be had.
   */
  async providerModels(providerId: string): Promise<ModelInfo[]> {
    const state = this.requireState(providerId);
    const list = state.list;
    const models = list?.models && list.expiresAt > this.now() ? list.models : await this.fetchModelsNow(state);
    return models.map((info) => ({ ...info, id: `${providerId}/${info.id}` }));
  }

  /** Every provider a request may name, each with its `source`; configured ones first. */
  async listProviders(): Promise<ProviderInfo[]> {
    await this.local?.refresh();
    return [...this.currentStates().values()].map((state) => state.info);
  }

  /** Closes what the adapters own. */
  async close(): Promise<void> {
    await Promise.all([...this.adapters.values()].map((adapter) => adapter.close?.()));
  }

  private currentStates(): Map<string, ProviderState> {
    let changed = false;
    for (let index = 0; index < this.sources.length; index++) {
      const version = this.sources[index]!.source.changeVersion();
      if (version !== this.loadedVersions[index]) changed = true;
      this.seenVersions[index] = version;
    }
    if (!changed && this.states) return this.states;
    const versions = [...this.seenVersions];
    const previous = this.states;
    const states = new Map<string, ProviderState>();
    for (const { origin, source } of this.sources) {
      for (const listed of source.listProviders()) {
        if (states.has(listed.id)) continue; // an earlier source wins
        const info: ProviderInfo = { ...listed, source: origin };
        const fingerprint = fingerprintOf(info);
        const kept = previous?.get(info.id);
        if (kept && kept.fingerprint === fingerprint) {
          kept.info = info; // the same object, so that a fetch in flight still lands in the cache
          kept.owner = source;
          states.set(info.id, kept);
        } else {
          states.set(info.id, { info, owner: source, fingerprint });
        }
      }
    }
    this.states = states;
    this.loadedVersions = versions;
    return states;
  }

  private requireState(providerId: string): ProviderState {
    const state = this.currentStates().get(providerId);
    if (!state) throw new ApiError(404, `There is no provider "${providerId}".`);
    return state;
  }

  /** Fetches the list whatever the cache holds, stores it, and throws the adapter's ApiError when that fails. */
  private async fetchModelsNow(state: ProviderState): Promise<ModelInfo[]> {
    const adapter = this.adapterFor(state.info);
    const target = { provider: state.info, apiKey: await this.apiKeyOf(state) };
    const models = await adapter.listModels(target, AbortSignal.timeout(this.modelsFetchTimeoutMs));
    const fetchedAt = this.now();
    state.list = { fetchedAt, expiresAt: fetchedAt + this.modelsTtlMs, models, ids: new Set(models.map((m) => m.id)) };
    return models;
  }

  private adapterFor(info: ProviderInfo): ProviderAdapter {
    const adapter = this.adapters.get(info.kind);
    if (adapter) return adapter;
    // 501 is the honest status (a feature of this build is missing); x-should-retry stops SDKs from retrying it.
    throw new ApiError(
      501,
      `Provider "${info.id}" is of kind "${info.kind}", which this version of Switchyard cannot call yet.`,
      { provider_name: info.id },
      { 'x-should-retry': 'false' },
    );
  }

  private async apiKeyOf(state: ProviderState): Promise<string | null> {
    const { info } = state;
    if (!info.has_api_key) return null;
    try {
      return await state.owner.getApiKey(info.id);
    } catch (error) {
      this.logger.error({ provider: info.id, err: (error as Error).message }, 'reading a provider key failed');
      throw new ApiError(500, `Could not read the API key of provider "${info.id}".`, { provider_name: info.id });
    }
  }

  /** The provider's model ids, or null when unknown (fetch failed, or slower than resolveWaitMs). */
  private async knownModelIds(
    state: ProviderState,
    adapter: ProviderAdapter,
    target: UpstreamTarget,
  ): Promise<ReadonlySet<string> | null> {
    const list = state.list;
    if (list && list.expiresAt > this.now()) return list.models ? list.ids : null;
    return this.refreshedModelIds(state, adapter, target);
  }

  private async refreshedModelIds(
    state: ProviderState,
    adapter: ProviderAdapter,
    target: UpstreamTarget,
  ): Promise<ReadonlySet<string> | null> {
    const refreshing = this.refresh(state, adapter, target);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.resolveWaitMs);
    });
    try {
      // On a timeout the fetch goes on in the background and fills the cache for the next request.
      const list = await Promise.race([refreshing, timedOut]);
      return list?.models ? list.ids : null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Fetches the provider's models once, however many callers ask at the same time. Never rejects. */
  private refresh(
    state: ProviderState,
    adapter: ProviderAdapter,
    target: Omit<UpstreamTarget, 'model'>,
  ): Promise<ModelList> {
    state.refreshing ??= this.fetchModelList(state, adapter, target).finally(() => {
      state.refreshing = undefined;
    });
    return state.refreshing;
  }

  private async fetchModelList(
    state: ProviderState,
    adapter: ProviderAdapter,
    target: Omit<UpstreamTarget, 'model'>,
  ): Promise<ModelList> {
    let list: ModelList;
    try {
      const models = await adapter.listModels(
        { provider: target.provider, apiKey: target.apiKey },
        AbortSignal.timeout(this.modelsFetchTimeoutMs),
      );
      const fetchedAt = this.now();
      list = { fetchedAt, expiresAt: fetchedAt + this.modelsTtlMs, models, ids: new Set(models.map((m) => m.id)) };
    } catch (error) {
      this.logger.warn(
        { provider: state.info.id, err: error instanceof Error ? error.message : String(error) },
        'listing the models of a provider failed',
      );
      const fetchedAt = this.now();
      list = { fetchedAt, expiresAt: fetchedAt + this.failedModelsTtlMs, models: null, ids: new Set() };
    }
    state.list = list;
    return list;
  }
}
