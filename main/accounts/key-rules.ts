// Key rules at the boundary: validation of a change (from the CLI, later the UI), conversion between the API's
// shape (USD, ISO times) and the stored one (nano-dollars, Unix ms), and the model access check.

import {
  ApiError,
  limitResets,
  nanosToUsd,
  usdToNanos,
  type KeyRules,
  type KeyRulesChange,
  type LimitReset,
} from '../../shared/api/index.js';
import type { KeyRulesRow } from '../store/index.js';

const maxLimitUsd = 1_000_000;
const maxPerMinute = 1_000_000_000;
const providerIdPattern = /^[a-z0-9_-]+$/i;
// `provider/model` (the model may contain more slashes, as OpenRouter's do) or a prefix ending in `/*`.
// `*`, a server name, or `server__tool`: no spaces or commas (the CLI splits on them), as settings names go.
const mcpAccessPattern = /^[^\s,]{1,200}$/;
const modelPatternPattern = /^[^\s/*]+\/([^\s*]*[^\s/*]|([^\s*]+\/)?\*)$/;

/** The rules as the API shows them. */
export function toApiRules(row: KeyRulesRow): KeyRules {
  return {
    limit: row.limitNanos === null ? null : nanosToUsd(row.limitNanos),
    limit_reset: row.limitReset,
    allowed_models: row.allowedModels,
    allowed_providers: row.allowedProviders,
    management: row.management,
    expires_at: row.expiresAt === null ? null : new Date(row.expiresAt).toISOString(),
    disabled: row.disabled,
    requests_per_minute: row.rpm,
    tokens_per_minute: row.tpm,
    allowed_mcp: row.allowedMcp,
    metrics: row.metrics,
  };
}

/** `base` with the change applied. Throws ApiError(400) naming the first invalid field. */
export function applyRulesChange(base: KeyRulesRow, change: KeyRulesChange): KeyRulesRow {
  if (typeof change !== 'object' || change === null) throw new ApiError(400, 'Key rules must be an object.');
  const next: KeyRulesRow = { ...base };
  if (change.limit !== undefined) next.limitNanos = change.limit === null ? null : limitNanos(change.limit);
  if (change.limit_reset !== undefined) next.limitReset = limitReset(change.limit_reset);
  if (change.allowed_models !== undefined)
    next.allowedModels = list(
      change.allowed_models,
      'allowed_models',
      modelPatternPattern,
      'a "provider/model" or "provider/*" pattern',
    );
  if (change.allowed_providers !== undefined)
    next.allowedProviders = list(change.allowed_providers, 'allowed_providers', providerIdPattern, 'a provider id');
  if (change.management !== undefined) next.management = flag(change.management, 'management');
  if (change.metrics !== undefined) next.metrics = flag(change.metrics, 'metrics');
  if (change.disabled !== undefined) next.disabled = flag(change.disabled, 'disabled');
  if (change.expires_at !== undefined) next.expiresAt = change.expires_at === null ? null : time(change.expires_at);
  if (change.requests_per_minute !== undefined) next.rpm = perMinute(change.requests_per_minute, 'requests_per_minute');
  if (change.tokens_per_minute !== undefined) next.tpm = perMinute(change.tokens_per_minute, 'tokens_per_minute');
  if (change.allowed_mcp !== undefined)
    next.allowedMcp = list(change.allowed_mcp, 'allowed_mcp', mcpAccessPattern, 'an MCP server, server__tool or *');
  return next;
}

/**
 * Whether the rules let a key use `model` (`provider/model`). Without any allow-list, every model; with lists,
 * a model passes when its provider is in allowed_providers OR it matches one of allowed_models (exact, or a
 * `prefix/*` pattern).
 */
export function modelAllowed(rules: Pick<KeyRulesRow, 'allowedModels' | 'allowedProviders'>, model: string): boolean {
  const { allowedModels, allowedProviders } = rules;
  if (allowedModels === null && allowedProviders === null) return true;
  const slash = model.indexOf('/');
  if (slash > 0 && allowedProviders?.includes(model.slice(0, slash))) return true;
  return (
    allowedModels?.some((pattern) =>
      pattern.endsWith('/*')
        ? model.startsWith(pattern.slice(0, -1)) && model.length > pattern.length - 1
        : pattern === model,
    ) ?? false
  );
}

function limitNanos(usd: unknown): number {
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0 || usd > maxLimitUsd) {
    throw new ApiError(400, `limit must be a number of USD from 0 to ${maxLimitUsd}, or null for no limit.`);
  }
  return usdToNanos(usd);
}

function limitReset(value: unknown): LimitReset {
  if (!(limitResets as readonly unknown[]).includes(value)) {
    throw new ApiError(400, `limit_reset must be one of ${limitResets.join(', ')}.`);
  }
  return value as LimitReset;
}

function list(value: unknown, field: string, pattern: RegExp, what: string): string[] | null {
  if (value === null) return null;
  if (!Array.isArray(value) || value.length === 0) {
    throw new ApiError(400, `${field} must be a non-empty list, or null to allow everything.`);
  }
  for (const item of value) {
    if (typeof item !== 'string' || !pattern.test(item)) {
      throw new ApiError(400, `${field}: ${JSON.stringify(item)} is not ${what}.`);
    }
  }
  return [...new Set(value as string[])];
}

function flag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new ApiError(400, `${field} must be true or false.`);
  return value;
}

function time(value: unknown): number {
  // Only full ISO 8601 dates or date-times: Date.parse alone accepts too much ("1", "March 7").
  const ms =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
      ? Date.parse(value)
      : NaN;
  if (Number.isNaN(ms)) throw new ApiError(400, 'expires_at must be an ISO 8601 date or date-time, or null.');
  return ms;
}

function perMinute(value: unknown, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > maxPerMinute) {
    throw new ApiError(400, `${field} must be a whole number from 1 to ${maxPerMinute}, or null for no limit.`);
  }
  return value;
}
