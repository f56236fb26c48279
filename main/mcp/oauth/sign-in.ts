// One OAuth sign-in to a remote MCP server, by the SDK's auth(): discovery of the protected-resource and
// authorization-server metadata, client registration, the authorization-code flow with PKCE through the
// person's browser and a loopback redirect, and the tokens stored through OAuthCredentials.

import { randomBytes } from 'node:crypto';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthCredentials } from './credential-store.js';
import { openLoopbackCallback } from './loopback-callback.js';
import { ServerOAuthProvider } from './server-oauth-provider.js';

export const defaultSignInTimeoutMs = 5 * 60_000;

export interface SignInOptions {
  server: string;
  /** The MCP endpoint, as in the settings entry (expanded). */
  url: string;
  credentials: OAuthCredentials;
  clientMetadataUrl?: string;
  /** Sends the person to the authorization URL (opens a browser, prints the link, hands it to the UI). */
  openAuthorizationUrl(url: URL): void | Promise<void>;
  /** How long to wait for the browser to come back. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Tests stand in a fetch; the SDK's default otherwise. */
  fetchFn?: FetchLike;
}

/** Resolves once tokens are stored; rejects with what went wrong (never with a token in the message). */
export async function signIn(options: SignInOptions): Promise<void> {
  const state = randomBytes(16).toString('base64url');
  const callback = await openLoopbackCallback({
    state,
    serverName: options.server,
    timeoutMs: options.timeoutMs ?? defaultSignInTimeoutMs,
  });
  const onAbort = () => callback.close();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const provider = new ServerOAuthProvider({
      server: options.server,
      credentials: options.credentials,
      stored: await options.credentials.read(options.server, options.url),
      ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
      signIn: { redirectUrl: callback.redirectUrl, state, openAuthorizationUrl: options.openAuthorizationUrl },
    });
    const fetchFn = options.fetchFn ? { fetchFn: options.fetchFn } : {};
    const started = await auth(provider, { serverUrl: options.url, ...fetchFn });
    if (started === 'AUTHORIZED') return;
    const authorizationCode = await callback.code;
    await auth(provider, { serverUrl: options.url, authorizationCode, ...fetchFn });
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    callback.close();
  }
}
