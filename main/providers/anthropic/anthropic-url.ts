import { joinUrl, withApiVersion } from '../http/url.js';

/**
 * `{base}/v1/<path>` for a base URL such as `https://api.anthropic.com`; a base that already ends in `/v1` (as
 * users copy it from docs) is not given a second one.
 */
export function anthropicUrl(baseUrl: string, path: string): string {
  return joinUrl(withApiVersion(baseUrl, ['v1'], 'v1'), path);
}
