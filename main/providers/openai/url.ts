// Which dialect an OpenAI-compatible base URL such as `https://openrouter.ai/api/v1` speaks.

import { AnswerCache } from '../../common/index.js';

/** The answers by base URL: asked for every request, and parsing the URL each time was measurable. */
const dialects = new AnswerCache<boolean>(100);

/**
 * Hosts that speak OpenRouter's extensions (the `reasoning` request object, `reasoning`/`reasoning_details` on
 * assistant messages). Other OpenAI-compatible servers get the plain OpenAI dialect.
 */
export function isOpenRouterLike(baseUrl: string): boolean {
  let known = dialects.get(baseUrl);
  if (known === undefined) {
    known = hostIsOpenRouter(baseUrl);
    dialects.set(baseUrl, null, known);
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
