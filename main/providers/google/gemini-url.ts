import { joinUrl, withApiVersion } from '../http/url.js';

const apiVersions = ['v1beta', 'v1', 'v1alpha'];

/**
 * `{base}/v1beta/<path>` for a base URL such as `https://generativelanguage.googleapis.com`. A base that already
 * ends in an API version (`…/v1beta`, `…/v1`) keeps it: the user chose it.
 */
export function geminiUrl(baseUrl: string, path: string, query: Record<string, string> = {}): string {
  const url = new URL(joinUrl(withApiVersion(baseUrl, apiVersions, 'v1beta'), path));
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** `models/<model>` for a plain name; names with a collection already (`tunedModels/…`) are kept. */
export function geminiModelPath(model: string): string {
  return model.includes('/') ? model : `models/${model}`;
}
