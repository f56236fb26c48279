// URL helpers shared by every adapter. Base URLs are what the user typed (`https://api.openai.com/v1`,
// `https://api.anthropic.com`, `http://127.0.0.1:11434/v1/`); these functions never assume more about them.

/**
 * joinUrl's answers by base URL, then path: every upstream call joins one, and parsing and printing a URL costs about
 * a microsecond and a half. Paths may hold a model name, which callers choose, so the whole cache is dropped when it
 * holds `maxJoinedUrls`.
 */
const joinedUrls = new Map<string, Map<string, string>>();
const maxJoinedUrls = 1000;
let joinedUrlCount = 0;

/** Appends `path` to the base URL's path, with exactly one slash between them; keeps the base's query string. */
export function joinUrl(baseUrl: string, path: string): string {
  let byPath = joinedUrls.get(baseUrl);
  const known = byPath?.get(path);
  if (known !== undefined) return known;
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const joined = url.toString();
  if (joinedUrlCount >= maxJoinedUrls) {
    joinedUrls.clear();
    joinedUrlCount = 0;
    byPath = undefined;
  }
  if (!byPath) joinedUrls.set(baseUrl, (byPath = new Map()));
  byPath.set(path, joined);
  joinedUrlCount += 1;
  return joined;
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
 * The base URL with an API version as its last path segment: kept when the user already ended it with one of
 * `accepted` (`https://api.anthropic.com/v1`), otherwise `fallback` is appended (`https://api.anthropic.com`).
 */
export function withApiVersion(baseUrl: string, accepted: readonly string[], fallback: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  url.pathname = accepted.includes(last) ? path : `${path}/${fallback}`;
  return url.toString();
}
