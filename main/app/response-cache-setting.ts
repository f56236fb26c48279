// The response cache's setting (decision 031): its TTL and scope are kept with the app's data (the store's
// app_settings, so every process on a data folder and every instance of a team server reads the same), changed from
// the Gateway screen, and read by the gateway on every request, so a change applies to the next request without a
// restart. A `serve` flag given at start wins over the stored value for that process; the view says which.

import {
  cacheTtlProblem,
  defaultResponseCacheChoice,
  responseCacheScopes,
  type ResponseCacheChoice,
  type ResponseCacheScope,
  type ResponseCacheSettingView,
} from '../../shared/api/index.js';
import { defaultResponseCacheLimits, type ResponseCacheSettings } from '../gateway/index.js';
import type { Store } from '../store/index.js';

const settingName = 'response_cache';

/** What `serve`'s flags set: each field given wins over the stored setting; the limits have no stored value. */
export type ResponseCacheFlags = Partial<ResponseCacheChoice> & { maxEntries?: number; maxBytes?: number };

export class ResponseCacheSetting {
  private readonly store: Pick<Store, 'getSetting' | 'setSetting' | 'changeVersion'>;
  private flags: ResponseCacheFlags = {};
  private version: number | undefined;
  private current: ResponseCacheSettings | undefined;

  constructor(store: Pick<Store, 'getSetting' | 'setSetting' | 'changeVersion'>) {
    this.store = store;
  }

  /** The flags of the `serve` this process runs (none for the desktop app). */
  override(flags: ResponseCacheFlags): void {
    this.flags = Object.fromEntries(
      Object.entries(flags).filter(([, value]) => value !== undefined),
    ) as ResponseCacheFlags;
    this.current = undefined;
  }

  /** What the gateway runs with: asked per request, read again only when the store changed. */
  settings(): ResponseCacheSettings {
    const version = this.store.changeVersion();
    if (this.current && version === this.version) return this.current;
    this.version = version;
    this.current = { ...defaultResponseCacheLimits, ...this.stored(), ...this.flags };
    return this.current;
  }

  view(): ResponseCacheSettingView {
    const { ttlSeconds, scope } = this.settings();
    return {
      stored: this.stored(),
      effective: { ttlSeconds, scope },
      overridden: { ttlSeconds: this.flags.ttlSeconds !== undefined, scope: this.flags.scope !== undefined },
    };
  }

  /**
   * Stores the setting; the next request runs with it. Turning the cache off serves nothing from it and stores
   * nothing in it; the answers stored before stay until their time is over (or a later write evicts them).
   */
  async save(choice: ResponseCacheChoice): Promise<ResponseCacheSettingView> {
    const problem = cacheTtlProblem(choice.ttlSeconds);
    if (problem) throw new Error(problem);
    await this.store.setSetting(settingName, JSON.stringify({ ttlSeconds: choice.ttlSeconds, scope: choice.scope }));
    this.current = undefined;
    return this.view();
  }

  /** The stored choice; a value this build cannot read counts as the default rather than stopping the gateway. */
  private stored(): ResponseCacheChoice {
    const text = this.store.getSetting(settingName);
    if (text === undefined) return defaultResponseCacheChoice;
    try {
      const value = JSON.parse(text) as Partial<ResponseCacheChoice>;
      const ttlSeconds =
        typeof value.ttlSeconds === 'number' && !cacheTtlProblem(value.ttlSeconds) ? value.ttlSeconds : 0;
      const scope = responseCacheScopes.includes(value.scope as ResponseCacheScope)
        ? (value.scope as ResponseCacheScope)
        : defaultResponseCacheChoice.scope;
      return { ttlSeconds, scope };
    } catch {
      return defaultResponseCacheChoice;
    }
  }
}
