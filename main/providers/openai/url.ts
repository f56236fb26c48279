// URL helpers for OpenAI-compatible base URLs such as `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1/`.

/** Appends `path` to the base URL's path, with exactly one slash between them; keeps the base's query string. */
export function joinUrl(baseUrl: string, path: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return url.toString();
}

/** The base URL as it may appear in messages and logs: no user info, query or fragment (they can hold secrets). */
export function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}

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
