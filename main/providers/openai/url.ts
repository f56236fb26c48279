// URL helpers for OpenAI-compatible base URLs such as `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1/`.

export { displayUrl, joinUrl } from '../http/url.js';

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
