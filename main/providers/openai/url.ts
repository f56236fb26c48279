// Which dialect an OpenAI-compatible base URL such as `https://openrouter.ai/api/v1` speaks.

/**
 * Hosts that speak OpenRouter's extensions (the `reasoning` request object, `reasoning`/`reasoning_details` on
 * assistant messages). Other OpenAI-compatible servers get the plain OpenAI dialect.
 */
export function isOpenRouterLike(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'openrouter.ai' || host.endsWith('.openrouter.ai');
  } catch {
    return false;
  }
}
