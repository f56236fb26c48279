// The key dialog's fields to and from a key's rules: what a new key starts with (no limit, every model, no
// management right, no metrics, no MCP hub), what an existing key's rules show as, and the rules the fields send.

import type { ApiKeyDetails, KeyRules, LimitReset } from '../../../shared/api/index.js';

export interface KeyForm {
  name: string;
  /** As typed: a number of USD, or empty for no limit. */
  limit: string;
  limitReset: LimitReset;
  /** "Only these" models rather than all. */
  restricted: boolean;
  /** The listed models that are ticked. */
  chosen: ReadonlySet<string>;
  /** Comma-separated patterns and models that are not listed. */
  patterns: string;
  /** Comma-separated provider ids. */
  providers: string;
  management: boolean;
  /** May read the gateway's Prometheus metrics (GET /metrics). */
  metrics: boolean;
  /** `2026-01-31T12:00` (local time, as datetime-local has it), or empty for never. */
  expires: string;
  rpm: string;
  tpm: string;
  disabled: boolean;
  /** The MCP hub: comma-separated servers and server__tool names, `*` for every server; empty for no access. */
  mcp: string;
}

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** `2026-01-31T12:00` (local) for datetime-local, from ISO. */
function localInputValue(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const offset = date.getTimezoneOffset() * 60_000;
  return new Date(date.getTime() - offset).toISOString().slice(0, 16);
}

/** The fields for an existing key, or for a new one (absent). `knownIds`: the models listed as checkboxes. */
export function toKeyForm(apiKey: ApiKeyDetails | undefined, knownIds: ReadonlySet<string>): KeyForm {
  return {
    name: apiKey?.name ?? '',
    limit: apiKey?.limit?.toString() ?? '',
    limitReset: apiKey?.limit_reset ?? 'never',
    restricted: apiKey?.allowed_models != null || apiKey?.allowed_providers != null,
    chosen: new Set(apiKey?.allowed_models?.filter((id) => knownIds.has(id)) ?? []),
    patterns: apiKey?.allowed_models?.filter((id) => !knownIds.has(id)).join(', ') ?? '',
    providers: apiKey?.allowed_providers?.join(', ') ?? '',
    management: apiKey?.management ?? false,
    metrics: apiKey?.metrics ?? false,
    expires: localInputValue(apiKey?.expires_at),
    rpm: apiKey?.requests_per_minute?.toString() ?? '',
    tpm: apiKey?.tokens_per_minute?.toString() ?? '',
    disabled: apiKey?.disabled ?? false,
    mcp: apiKey?.allowed_mcp?.join(', ') ?? '',
  };
}

/** The rules the fields say; `disabled` only when editing (a new key starts enabled). */
export function toKeyRules(form: KeyForm, editing: boolean): Partial<KeyRules> {
  const allowedModels = [...form.chosen, ...list(form.patterns)];
  const allowedProviders = list(form.providers);
  const optionalNumber = (text: string) => (text.trim() === '' ? null : Number(text));
  return {
    limit: optionalNumber(form.limit),
    limit_reset: form.limitReset,
    allowed_models: form.restricted && allowedModels.length > 0 ? allowedModels : null,
    allowed_providers: form.restricted && allowedProviders.length > 0 ? allowedProviders : null,
    management: form.management,
    metrics: form.metrics,
    expires_at: form.expires ? new Date(form.expires).toISOString() : null,
    requests_per_minute: optionalNumber(form.rpm),
    tokens_per_minute: optionalNumber(form.tpm),
    allowed_mcp: list(form.mcp).length > 0 ? list(form.mcp) : null,
    ...(editing ? { disabled: form.disabled } : {}),
  };
}

/** Why these rules cannot be sent, or null: "Only these" with nothing chosen would allow every model. */
export function rulesProblem(form: KeyForm, rules: Partial<KeyRules>): string | null {
  if (form.restricted && rules.allowed_models === null && rules.allowed_providers === null) {
    return 'Choose at least one model or provider, or allow all models.';
  }
  return null;
}

/** Changes one field (the dialog's pieces get this rather than a setter per field). */
export type SetKeyField = <K extends keyof KeyForm>(field: K, value: KeyForm[K]) => void;

/** The fields typed as text. */
type TextKeyField = 'name' | 'limit' | 'patterns' | 'providers' | 'expires' | 'rpm' | 'tpm' | 'mcp';

/** A text field's value and what changes it, as a TextField takes them. */
export function textOf(form: KeyForm, set: SetKeyField, field: TextKeyField) {
  return { value: form[field], onChange: (value: string) => set(field, value) };
}
