// Adding, listing and removing upstream providers: the row in the database and the secret in the keychain,
// kept in step. The secret never comes back out of here except to the registry that calls the upstream.

import { ApiError, providerKinds, type ProviderInfo, type ProviderKind } from '../../shared/api/index.js';
import type { SecretStore } from '../secrets/index.js';
import type { Store } from '../store/index.js';

const providerIdPattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Kinds whose adapters exist in this build; the registry is shaped for every kind in `providerKinds`. */
export const supportedProviderKinds: readonly ProviderKind[] = ['openai', 'anthropic', 'google'];

export interface NewProvider {
  id: string;
  kind: string;
  baseUrl: string;
  /** null: the provider needs no key (e.g. a local Ollama). */
  apiKey: string | null;
}

export function secretAccountFor(providerId: string): string {
  return `provider:${providerId}`;
}

export function validateNewProvider(input: NewProvider): ProviderInfo {
  if (!providerIdPattern.test(input.id)) {
    throw new ApiError(
      400,
      `Invalid provider id "${input.id}": use 1–64 lowercase letters, digits, "-" or "_", starting with a letter or digit.`,
    );
  }
  if (!(providerKinds as readonly string[]).includes(input.kind)) {
    throw new ApiError(400, `Unknown provider kind "${input.kind}". Kinds: ${providerKinds.join(', ')}.`);
  }
  const kind = input.kind as ProviderKind;
  if (!supportedProviderKinds.includes(kind)) {
    throw new ApiError(400, `Provider kind "${kind}" is not supported by this build yet.`);
  }
  let url: URL;
  try {
    url = new URL(input.baseUrl);
  } catch {
    throw new ApiError(400, `Invalid base URL "${input.baseUrl}": expected an absolute http(s) URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(400, `Invalid base URL "${input.baseUrl}": only http and https are supported.`);
  }
  if (url.username || url.password) {
    throw new ApiError(400, 'The base URL must not contain credentials: pass the API key separately.');
  }
  return {
    id: input.id,
    kind,
    base_url: url.toString().replace(/\/+$/, ''),
    has_api_key: input.apiKey !== null && input.apiKey !== '',
    created_at: new Date().toISOString(),
  };
}

export class ProviderSettings {
  constructor(
    private readonly store: Store,
    private readonly secrets: () => Promise<SecretStore>,
  ) {}

  list(): ProviderInfo[] {
    return this.store.listProviders();
  }

  /** Adds or replaces a provider. The secret is written before the row so a row never points at a missing key. */
  async add(input: NewProvider): Promise<ProviderInfo> {
    const info = validateNewProvider(input);
    const existing = this.store.getProvider(info.id);
    const secrets = await this.secrets();
    const account = secretAccountFor(info.id);
    if (info.has_api_key) await secrets.set(account, input.apiKey as string);
    else await secrets.delete(account);
    this.store.upsertProvider(existing ? { ...info, created_at: existing.created_at } : info);
    return this.store.getProvider(info.id) as ProviderInfo;
  }

  async remove(id: string): Promise<boolean> {
    const removed = this.store.removeProvider(id);
    if (removed) await (await this.secrets()).delete(secretAccountFor(id));
    return removed;
  }
}
