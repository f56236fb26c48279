// Which dialect an OpenAI-compatible base URL such as `https://openrouter.ai/api/v1` speaks.

/**
 * The answers by base URL: asked for every request, and parsing the URL each time was measurable. Base URLs come
 * from the provider settings, so there are few, but the cache is bounded all the same.
 */
const dialects = new Map<string, boolean>();
const maxDialects = 100;

/**
 * Hosts that speak OpenRouter's extensions (the `reasoning` request object, `reasoning`/`reasoning_details` on
 * assistant messages). Other OpenAI-compatible servers get the plain OpenAI dialect.
 */
export function isOpenRouterLike(baseUrl: string): boolean {
  let known = dialects.get(baseUrl);
  if (known === undefined) {
    if (dialects.size >= maxDialects) dialects.clear();
    known = hostIsOpenRouter(baseUrl);
    dialects.set(baseUrl, known);
  }
  return known;
}

function hostIsOpenRouter(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'openrouter.ai' || host.endsWith('.openrouter.ai');
  } catch {
    return false;
  }
}
