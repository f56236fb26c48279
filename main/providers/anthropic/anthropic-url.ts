import type { ProviderTarget } from '../http/upstream-http.js';
import { joinUrl, withApiVersion } from '../http/url.js';
import { anthropicVersion } from './anthropic-api.js';

/**
 * `{base}/v1/<path>` for a base URL such as `https://api.anthropic.com`; a base that already ends in `/v1` (as
 * users copy it from docs) is not given a second one.
 */
export function anthropicUrl(baseUrl: string, path: string): string {
  return joinUrl(withApiVersion(baseUrl, ['v1'], 'v1'), path);
}

/** The headers of every request to Anthropic: the API version we speak and the provider's key, when it has one. */
export function anthropicHeaders(target: ProviderTarget): Record<string, string> {
  const headers: Record<string, string> = { 'anthropic-version': anthropicVersion };
  if (target.apiKey) headers['x-api-key'] = target.apiKey;
  return headers;
}
