// What a protected MCP server says when it refuses a request: the `WWW-Authenticate: Bearer …` challenge of its
// 401 (sign in; `resource_metadata` names where its protected-resource metadata is, `scope` what to ask for) or
// of its 403 `insufficient_scope` (the token is good but too narrow: ask again for more). The connection's fetch
// hears every challenge of the MCP endpoint through watchChallenges; scopes are sets, kept as the space-separated
// strings OAuth writes them as.

import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface BearerChallenge {
  status: number;
  resourceMetadataUrl?: URL;
  scope?: string;
  /** e.g. `insufficient_scope`, `invalid_token` */
  error?: string;
}

/**
 * A fetch for one MCP endpoint that tells `onChallenge` about every Bearer challenge the endpoint answers with,
 * before the SDK sees the response; `onChallenge` may throw to stop the request there. Requests to other URLs (the
 * metadata and the authorization server) pass untouched.
 */
export function watchChallenges(
  endpoint: string,
  onChallenge: (challenge: BearerChallenge) => void | Promise<void>,
  base: FetchLike = fetch,
): FetchLike {
  const watched = withoutQuery(endpoint);
  return async (url, init) => {
    const response = await base(url, init);
    if ((response.status !== 401 && response.status !== 403) || withoutQuery(url) !== watched) return response;
    const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
    const challenge: BearerChallenge = {
      status: response.status,
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      ...(scope ? { scope } : {}),
      ...(error ? { error } : {}),
    };
    try {
      await onChallenge(challenge);
    } catch (thrown) {
      await response.body?.cancel();
      throw thrown;
    }
    return response;
  };
}

/** The scopes of all the arguments, each once, in the order first seen; undefined when there are none. */
export function scopeUnion(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap((scope) => scope?.split(/\s+/).filter(Boolean) ?? []));
  return all.size > 0 ? [...all].join(' ') : undefined;
}

/** Whether every scope of `wanted` is in `held`. */
export function coversScope(held: string | undefined, wanted: string | undefined): boolean {
  const heldScopes = new Set(held?.split(/\s+/) ?? []);
  return (wanted?.split(/\s+/).filter(Boolean) ?? []).every((scope) => heldScopes.has(scope));
}

function withoutQuery(url: string | URL): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
