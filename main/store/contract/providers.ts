// A provider as both engines' providers table holds it. The database keeps Unix milliseconds; ProviderInfo speaks
// ISO 8601.

import {
  providerKinds,
  type ProviderInfo,
  type ProviderKind,
  type ProviderCooldown,
  type ProviderTimeouts,
} from '../../../shared/api/index.js';

export interface ProviderColumns {
  id: string;
  kind: string;
  base_url: string;
  has_api_key: number;
  created_at: number;
  api_key_tail: string | null;
  timeouts: string | null;
  cooldown: string | null;
}

/** The row's columns (both engines). */
export function toProviderColumns(provider: ProviderInfo): ProviderColumns {
  const createdAt = Date.parse(provider.created_at);
  if (Number.isNaN(createdAt)) {
    throw new Error(`provider "${provider.id}" has an invalid created_at: ${JSON.stringify(provider.created_at)}`);
  }
  return {
    id: provider.id,
    kind: provider.kind,
    base_url: provider.base_url,
    has_api_key: provider.has_api_key ? 1 : 0,
    created_at: createdAt,
    api_key_tail: provider.has_api_key ? (provider.api_key_tail ?? null) : null,
    timeouts: provider.timeouts && Object.keys(provider.timeouts).length > 0 ? JSON.stringify(provider.timeouts) : null,
    cooldown: provider.cooldown && Object.keys(provider.cooldown).length > 0 ? JSON.stringify(provider.cooldown) : null,
  };
}

export function toProviderInfo(columns: ProviderColumns): ProviderInfo {
  return {
    id: columns.id,
    kind: toProviderKind(columns.kind, columns.id),
    base_url: columns.base_url,
    has_api_key: columns.has_api_key !== 0,
    created_at: new Date(columns.created_at).toISOString(),
    ...(columns.api_key_tail === null ? {} : { api_key_tail: columns.api_key_tail }),
    ...(columns.timeouts === null ? {} : { timeouts: JSON.parse(columns.timeouts) as ProviderTimeouts }),
    ...(columns.cooldown === null ? {} : { cooldown: JSON.parse(columns.cooldown) as ProviderCooldown }),
  };
}

function toProviderKind(kind: string, id: string): ProviderKind {
  if ((providerKinds as readonly string[]).includes(kind)) return kind as ProviderKind;
  throw new Error(`provider "${id}" has an unknown kind "${kind}" in the database`);
}
