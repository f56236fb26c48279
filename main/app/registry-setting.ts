// Which MCP Registry the Discover view and `switchyard mcp search|install` ask: the official one unless the person
// (or their company, which runs its own) chose another. Kept with the app's data (the store's app_settings, as the
// response cache's setting), so the desktop app, `serve` and the CLI on one data folder ask the same registry; a
// command's `--registry URL` wins for that command.

import { defaultRegistryUrl, normalizeRegistryUrl } from '../mcp/index.js';
import type { Store } from '../store/index.js';

const settingName = 'mcp_registry_url';

export class RegistrySetting {
  constructor(private readonly store: Pick<Store, 'getSetting' | 'setSetting'>) {}

  /** The stored URL; a value this build cannot read counts as the default. */
  url(): string {
    const text = this.store.getSetting(settingName);
    if (text === undefined) return defaultRegistryUrl;
    try {
      return normalizeRegistryUrl(JSON.parse(text) as string);
    } catch {
      return defaultRegistryUrl;
    }
  }

  /** Stores `url` (checked; an empty value goes back to the official registry) and returns it as stored. */
  async save(url: string): Promise<string> {
    const normalized = url.trim() === '' ? defaultRegistryUrl : normalizeRegistryUrl(url.trim());
    await this.store.setSetting(settingName, JSON.stringify(normalized));
    return normalized;
  }
}
