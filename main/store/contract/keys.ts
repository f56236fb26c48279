// API keys and their rules as both engines hold them: the rows the app reads, the rules' defaults, and the
// key_rules columns each engine writes. Times are Unix milliseconds, money whole nano-dollars.

import type { LimitReset } from '../../../shared/api/index.js';

export interface KeyRow {
  id: string;
  name: string;
  /** The masked secret shown in lists. */
  label: string;
  /** sha256 of the secret; the secret itself is never stored. */
  secretHash: Buffer;
  createdAt: number;
  lastUsedAt: number | null;
}

export type NewKeyRow = Omit<KeyRow, 'lastUsedAt'>;

export interface KeyRulesRow {
  limitNanos: number | null;
  limitReset: LimitReset;
  allowedModels: string[] | null;
  allowedProviders: string[] | null;
  management: boolean;
  expiresAt: number | null;
  disabled: boolean;
  rpm: number | null;
  tpm: number | null;
  /** MCP servers (`fs`) and tools (`fs__read_file`) the key may use through the hub, `*` for all; null = none. */
  allowedMcp: string[] | null;
  /** May read the gateway's Prometheus metrics (GET /metrics) without the management right. */
  metrics: boolean;
}

export const defaultKeyRules: Readonly<KeyRulesRow> = Object.freeze({
  limitNanos: null,
  limitReset: 'never',
  allowedModels: null,
  allowedProviders: null,
  management: true,
  expiresAt: null,
  disabled: false,
  rpm: null,
  tpm: null,
  allowedMcp: null,
  metrics: false,
});

export interface KeyRulesColumns {
  key_id: string;
  limit_nanos: number | null;
  limit_reset: string;
  allowed_models: string | null;
  allowed_providers: string | null;
  management: number;
  expires_at: number | null;
  disabled: number;
  rpm: number | null;
  tpm: number | null;
  allowed_mcp: string | null;
  metrics: number;
}

/** The row's columns (both engines write them). */
export function toKeyRulesColumns(keyId: string, rules: KeyRulesRow): KeyRulesColumns {
  return {
    key_id: keyId,
    limit_nanos: rules.limitNanos,
    limit_reset: rules.limitReset,
    allowed_models: rules.allowedModels && JSON.stringify(rules.allowedModels),
    allowed_providers: rules.allowedProviders && JSON.stringify(rules.allowedProviders),
    management: rules.management ? 1 : 0,
    expires_at: rules.expiresAt,
    disabled: rules.disabled ? 1 : 0,
    rpm: rules.rpm,
    tpm: rules.tpm,
    allowed_mcp: rules.allowedMcp && JSON.stringify(rules.allowedMcp),
    metrics: rules.metrics ? 1 : 0,
  };
}

export function toKeyRules(row: KeyRulesColumns): KeyRulesRow {
  return {
    limitNanos: row.limit_nanos,
    limitReset: row.limit_reset as LimitReset,
    allowedModels: parseList(row.allowed_models),
    allowedProviders: parseList(row.allowed_providers),
    management: row.management !== 0,
    expiresAt: row.expires_at,
    disabled: row.disabled !== 0,
    rpm: row.rpm,
    tpm: row.tpm,
    allowedMcp: parseList(row.allowed_mcp),
    metrics: row.metrics !== 0,
  };
}

// Written by toColumns only; a list that does not parse (edited by hand) allows nothing rather than everything.
function parseList(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}
