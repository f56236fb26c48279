// URL helpers shared by every adapter. Base URLs are what the user typed (`https://api.openai.com/v1`,
// `https://api.anthropic.com`, `http://127.0.0.1:11434/v1/`); these functions never assume more about them.

import { AnswerCache } from '../../common/index.js';

/** joinUrl's answers: every upstream call joins one, and parsing and printing a URL costs about 1.5 µs. */
const joinedUrls = new AnswerCache<string>(1000);

/** Appends `path` to the base URL's path, with exactly one slash between them; keeps the base's query string. */
export function joinUrl(baseUrl: string, path: string): string {
  const known = joinedUrls.get(baseUrl, path);
  if (known !== undefined) return known;
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const joined = url.toString();
  joinedUrls.set(baseUrl, path, joined);
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
