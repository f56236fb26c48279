// Adding, listing and removing upstream providers: the row in the database and the secret in the keychain,
// kept in step. The secret never comes back out of here except to the registry that calls the upstream.

import {
  ApiError,
  providerKinds,
  providerTimeoutFields,
  type ProviderCooldown,
  type ProviderInfo,
  type ProviderKind,
  type ProviderTimeouts,
} from '../../shared/api/index.js';
import type { SecretStore } from '../secrets/index.js';
import type { Store } from '../store/index.js';

const providerIdPattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Whether `id` may name a provider: 1–64 lowercase letters, digits, "-" or "_", starting with a letter or digit. */
export function isProviderId(id: string): boolean {
  return providerIdPattern.test(id);
}

/** Kinds whose adapters exist in this build; the registry is shaped for every kind in `providerKinds`. */
export const supportedProviderKinds: readonly ProviderKind[] = ['openai', 'anthropic', 'google'];

export interface NewProvider {
  id: string;
  kind: string;
  baseUrl: string;
  /** null: the provider needs no key (e.g. a local Ollama). */
  apiKey: string | null;
  /** Limits that differ from the defaults (seconds). */
  timeouts?: ProviderTimeouts;
  /** Cooldown settings that differ from the defaults. */
  cooldown?: ProviderCooldown;
}

/** What changes in `update`: absent fields stay; `apiKey: null` removes the stored key. */
export interface ProviderChange {
  kind?: string;
  baseUrl?: string;
  apiKey?: string | null;
  /** Replaces the limits; `{}` goes back to the defaults. */
  timeouts?: ProviderTimeouts;
  /** Replaces the cooldown settings; `{}` goes back to the defaults. */
  cooldown?: ProviderCooldown;
}

/** A day: a longer wait is a mistake in the number, not a slow model. */
const maxTimeoutSeconds = 86_400;

/** The limits as given, each a whole number of seconds from 1 to a day; throws ApiError(400) naming the field. */
export function validateTimeouts(timeouts: ProviderTimeouts | undefined): ProviderTimeouts | undefined {
  if (timeouts === undefined) return undefined;
  const valid: ProviderTimeouts = {};
  for (const [field, seconds] of Object.entries(timeouts)) {
    if (!(providerTimeoutFields as readonly string[]).includes(field)) {
      throw new ApiError(400, `Unknown timeout "${field}": use ${providerTimeoutFields.join(', ')}.`);
    }
    if (seconds === undefined) continue;
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > maxTimeoutSeconds) {
      throw new ApiError(400, `Timeout "${field}" must be a whole number of seconds from 1 to ${maxTimeoutSeconds}.`);
    }
    valid[field as keyof ProviderTimeouts] = seconds;
  }
  return Object.keys(valid).length > 0 ? valid : undefined;
}

/** Most failures before a cooldown, and the longest first cooldown (the cap of a doubled one is 10 minutes). */
const maxCooldownAfter = 1_000;
const maxCooldownSeconds = 600;

/** The cooldown settings as given: `after` 0 (off) to 1000 failures, `seconds` 1 to 600; throws ApiError(400). */
export function validateCooldown(cooldown: ProviderCooldown | undefined): ProviderCooldown | undefined {
  if (cooldown === undefined) return undefined;
  const { after, seconds } = cooldown;
  if (after !== undefined && (!Number.isInteger(after) || after < 0 || after > maxCooldownAfter)) {
    throw new ApiError(400, `Cooldown after must be a whole number of failures from 0 (off) to ${maxCooldownAfter}.`);
  }
  if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 1 || seconds > maxCooldownSeconds)) {
    throw new ApiError(400, `Cooldown must be a whole number of seconds from 1 to ${maxCooldownSeconds}.`);
  }
  const valid: ProviderCooldown = {
    ...(after === undefined ? {} : { after }),
    ...(seconds === undefined ? {} : { seconds }),
  };
  return Object.keys(valid).length > 0 ? valid : undefined;
}

export function secretAccountFor(providerId: string): string {
  return `provider:${providerId}`;
}

/** Shorter keys show nothing of themselves: four characters of a short secret would give too much of it away. */
const minKeyLengthForTail = 12;

/** The last four characters of a key, or undefined when the key is too short to show any of it. */
export function keyTailOf(apiKey: string | null): string | undefined {
  return apiKey !== null && apiKey.length >= minKeyLengthForTail ? apiKey.slice(-4) : undefined;
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
  const hasApiKey = input.apiKey !== null && input.apiKey !== '';
  const tail = hasApiKey ? keyTailOf(input.apiKey) : undefined;
  const timeouts = validateTimeouts(input.timeouts);
  const cooldown = validateCooldown(input.cooldown);
  return {
    id: input.id,
    kind,
    base_url: url.toString().replace(/\/+$/, ''),
    has_api_key: hasApiKey,
    created_at: new Date().toISOString(),
    ...(tail === undefined ? {} : { api_key_tail: tail }),
    ...(timeouts === undefined ? {} : { timeouts }),
    ...(cooldown === undefined ? {} : { cooldown }),
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

  get(id: string): ProviderInfo | undefined {
    return this.store.getProvider(id);
  }

  /**
   * Adds or replaces a provider. The secret is written before the row so a row never points at a missing key.
   * With `replace: false` an existing id is refused (ApiError 409) instead: the UI's "add" must not overwrite.
   */
  async add(input: NewProvider, options: { replace?: boolean } = {}): Promise<ProviderInfo> {
    const info = validateNewProvider(input);
    const existing = this.store.getProvider(info.id);
    if (existing && options.replace === false) {
      throw new ApiError(409, `A provider "${info.id}" exists already: edit it, or choose another id.`);
    }
    const secrets = await this.secrets();
    const account = secretAccountFor(info.id);
    if (info.has_api_key) await secrets.set(account, input.apiKey as string);
    else await secrets.delete(account);
    await this.store.upsertProvider(existing ? { ...info, created_at: existing.created_at } : info);
    return this.store.getProvider(info.id) as ProviderInfo;
  }

  /**
   * Changes a provider's kind, base URL or key; a key left out stays as stored (the UI never has it to send back).
   * Throws ApiError 404 for an unknown id, 400 for an invalid change.
   */
  async update(id: string, change: ProviderChange): Promise<ProviderInfo> {
    const existing = this.store.getProvider(id);
    if (!existing) throw new ApiError(404, `There is no provider "${id}".`);
    const timeouts = change.timeouts ?? existing.timeouts;
    const cooldown = change.cooldown ?? existing.cooldown;
    const merged = {
      id,
      kind: change.kind ?? existing.kind,
      baseUrl: change.baseUrl ?? existing.base_url,
      ...(timeouts === undefined ? {} : { timeouts }),
      ...(cooldown === undefined ? {} : { cooldown }),
    };
    if (change.apiKey !== undefined) return this.add({ ...merged, apiKey: change.apiKey });
    const { has_api_key, api_key_tail } = existing;
    const info = { ...validateNewProvider({ ...merged, apiKey: null }), has_api_key, created_at: existing.created_at };
    await this.store.upsertProvider(api_key_tail === undefined ? info : { ...info, api_key_tail });
    return this.store.getProvider(id) as ProviderInfo;
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.store.removeProvider(id);
    if (removed) await (await this.secrets()).delete(secretAccountFor(id));
    return removed;
  }
}
