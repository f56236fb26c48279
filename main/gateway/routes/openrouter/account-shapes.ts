// The account endpoints' answers in OpenRouter's shapes, from what main/accounts reports: GET /key (and its old
// name /auth/key), /credits, /generation, and the key records of /keys. `@openrouter/sdk` parses them strictly:
// every field its schemas require is here, with Switchyard's own fields beside them. Where OpenRouter has a field
// for something Switchyard does not have (BYOK, organisations, workspaces, data regions) it gets the value that
// means "none"; where a number is required and Switchyard has "unknown" or "no limit", decision 012 says which.

import type {
  ApiKeyDetails,
  CreditsInfo,
  GenerationInfo,
  KeyStatus,
  LimitReset,
} from '../../../../shared/api/index.js';
import { maxCreditsUsd } from '../../../accounts/index.js';

/**
 * What /credits reports as `total_credits` while no balance is set (nothing is refused for credits): the largest
 * balance `switchyard credits set` accepts, so that "credits minus usage" reads as plenty, never as empty.
 */
export const unlimitedCreditsUsd = maxCreditsUsd;

/** OpenRouter's "no such limit" where its schema wants a number (its rate_limit is documented as always -1). */
const noLimit = -1;

/** Fields of OpenRouter's key records for what Switchyard does not have: no BYOK spend, no owner, no workspace. */
const noByok = {
  include_byok_in_limit: false,
  byok_usage: 0,
  byok_usage_daily: 0,
  byok_usage_weekly: 0,
  byok_usage_monthly: 0,
};

function openRouterLimitReset(reset: LimitReset | null): Exclude<LimitReset, 'never'> | null {
  return reset === null || reset === 'never' ? null : reset;
}

/** GET /key: the calling key. */
export function toOpenRouterKeyStatus(status: KeyStatus) {
  return {
    ...status,
    ...noByok,
    is_provisioning_key: status.is_management_key,
    allowed_data_regions: [] as string[],
    creator_user_id: null,
    organization_id: null,
    workspace_id: null,
    free_model_daily_requests: { limit: noLimit, remaining: noLimit, used: 0 },
    rate_limit: {
      requests: status.rate_limit.requests ?? noLimit,
      tokens: status.rate_limit.tokens,
      interval: status.rate_limit.interval,
      note: 'Requests and tokens per 60 s for this key in each gateway process; -1 (tokens: null) means no limit.',
    },
  };
}

/** GET /credits. */
export function toOpenRouterCredits(credits: CreditsInfo) {
  return {
    total_credits: credits.total_credits ?? unlimitedCreditsUsd,
    total_usage: credits.total_usage,
    /** True while no balance is set: total_credits is then unlimitedCreditsUsd, not money granted. */
    unlimited: credits.total_credits === null,
  };
}

/**
 * GET /generation. A request of a model without a price that did use tokens costs `-1` (OpenRouter's "not known",
 * as in its pricing), never a $0 that looks free; `unpriced` says the same.
 */
export function toOpenRouterGeneration(generation: GenerationInfo) {
  const usedTokens = generation.tokens_prompt + generation.tokens_completion > 0;
  const cost = generation.unpriced && usedTokens ? -1 : generation.total_cost;
  const ttft = generation.time_to_first_token;
  return {
    ...generation,
    origin: generation.origin ?? '',
    http_referer: generation.origin,
    api_type: 'completions',
    app_id: null,
    cache_discount: null,
    data_region: 'local',
    external_user: null,
    generation_time: ttft === null ? null : generation.latency - ttft,
    is_byok: false,
    moderation_latency: null,
    native_finish_reason: null,
    native_tokens_prompt: generation.tokens_prompt,
    native_tokens_completion: generation.tokens_completion,
    native_tokens_completion_images: null,
    num_fetches: null,
    num_input_audio_prompt: null,
    num_media_completion: null,
    num_media_prompt: null,
    num_search_results: null,
    preset_id: null,
    provider_responses: null,
    request_id: null,
    router: null,
    service_tier: null,
    total_cost: cost,
    upstream_id: null,
    upstream_inference_cost: null,
    usage: cost,
    user_agent: null,
    web_search_engine: null,
    workspace_id: null,
  };
}

/** A key in GET/POST/PATCH /keys: OpenRouter's record (`hash` is the key's id) with Switchyard's rules beside it. */
export function toOpenRouterKey(key: ApiKeyDetails, status: KeyStatus) {
  return {
    ...key,
    ...noByok,
    hash: key.id,
    name: key.name,
    label: key.label,
    disabled: key.disabled,
    created_at: key.created_at,
    updated_at: null,
    limit: key.limit,
    limit_remaining: status.limit_remaining,
    limit_reset: openRouterLimitReset(key.limit_reset),
    usage: status.usage,
    usage_daily: status.usage_daily,
    usage_weekly: status.usage_weekly,
    usage_monthly: status.usage_monthly,
    expires_at: key.expires_at,
    creator_user_id: null,
    external_user: null,
    // Required as a string by OpenRouter's key records; Switchyard has no workspaces.
    workspace_id: '',
  };
}
