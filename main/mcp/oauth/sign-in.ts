// One OAuth sign-in to a remote MCP server, by the SDK's auth(): discovery of the protected-resource and
// authorization-server metadata, client registration, the authorization-code flow with PKCE through the
// person's browser and a loopback redirect, and the tokens stored through OAuthCredentials. It starts from what the
// server's challenge said (`resourceMetadataUrl`, `scope`); with no scope given, the SDK asks for the
// protected-resource metadata's scopes_supported, or for none.

import { randomBytes } from 'node:crypto';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthCredentials } from './credential-store.js';
import { openLoopbackCallback } from './loopback-callback.js';
import { ServerOAuthProvider, type PreRegisteredClient } from './server-oauth-provider.js';

export const defaultSignInTimeoutMs = 5 * 60_000;

export interface SignInOptions {
  server: string;
  /** The MCP endpoint, as in the settings entry (expanded). */
  url: string;
  credentials: OAuthCredentials;
  clientMetadataUrl?: string;
  preRegistered?: PreRegisteredClient;
  /** From the server's 401 challenge: where its protected-resource metadata is, when not at the well-known path. */
  resourceMetadataUrl?: URL;
  /** The scope to ask for: the challenge's, widened by the insufficient_scope challenges heard before. */
  scope?: string;
  /** Sends the person to the authorization URL (opens a browser, prints the link, hands it to the UI). */
  openAuthorizationUrl(url: URL): void | Promise<void>;
  /** How long to wait for the browser to come back. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Tests stand in a fetch; the SDK's default otherwise. */
  fetchFn?: FetchLike;
}

/**
 * Resolves with the scope asked for once tokens are stored; rejects with what went wrong (never with a token in
 * the message).
 */
export async function signIn(options: SignInOptions): Promise<string | undefined> {
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
      ...(options.preRegistered ? { preRegistered: options.preRegistered } : {}),
      signIn: { redirectUrl: callback.redirectUrl, state, openAuthorizationUrl: options.openAuthorizationUrl },
    });
    const authOptions = {
      serverUrl: options.url,
      ...(options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl } : {}),
      ...(options.scope ? { scope: options.scope } : {}),
      ...(options.fetchFn ? { fetchFn: options.fetchFn } : {}),
    };
    const started = await auth(provider, authOptions);
    if (started === 'REDIRECT') await auth(provider, { ...authOptions, authorizationCode: await callback.code });
    return provider.storedScope;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    callback.close();
  }
}
