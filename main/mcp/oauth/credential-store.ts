// Where a remote MCP server's OAuth sign-in is kept: its client registration and its tokens, as one JSON value
// per server in the secret store that holds provider keys (the OS keychain, or the 0600 file without one) —
// never in mcp_settings.json, which other apps read and people paste into issues. A value is bound to the url it
// was obtained for: when the entry's url changes, the old sign-in is not sent to the new server. The secret of a
// client registered by hand (the entry's `oauth.clientId`) has a slot of its own: it is the person's setting, not
// part of a sign-in, so signing out or a refused client does not delete it.

import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * The part of main/secrets' SecretStore used here, named again because main/mcp does not import main/secrets
 * (decision 010): the app passes its store in.
 */
export interface SecretSlots {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  /** Forgets a cached value, so that the next get() reads what another process may have written. */
  invalidate(account?: string): void;
}

export interface StoredSignIn {
  url: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** The scope the last sign-in asked for, widened by the server's insufficient_scope challenges since. */
  scope?: string;
}

export function oauthAccountFor(server: string): string {
  return `mcp-oauth:${server}`;
}

export function clientSecretAccountFor(server: string): string {
  return `mcp-oauth-client-secret:${server}`;
}

export class OAuthCredentials {
  /** `secrets` is opened on first use: servers without OAuth never touch the keychain. */
  constructor(private readonly secrets: () => Promise<SecretSlots>) {}

  /**
   * What is stored for the server at `url`, read afresh: a `switchyard mcp login` in another process may have
   * signed in since.
   */
  async read(server: string, url: string): Promise<StoredSignIn> {
    const store = await this.secrets();
    const account = oauthAccountFor(server);
    store.invalidate(account);
    const stored = parseStored(await store.get(account));
    return stored?.url === url ? stored : { url };
  }

  async write(server: string, signIn: StoredSignIn): Promise<void> {
    const store = await this.secrets();
    await store.set(oauthAccountFor(server), JSON.stringify(signIn));
  }

  /** False when nothing was stored. */
  async clear(server: string): Promise<boolean> {
    const store = await this.secrets();
    return store.delete(oauthAccountFor(server));
  }

  /** The secret of the server's pre-registered client, read afresh; undefined when none is set. */
  async readClientSecret(server: string): Promise<string | undefined> {
    const store = await this.secrets();
    const account = clientSecretAccountFor(server);
    store.invalidate(account);
    return (await store.get(account)) ?? undefined;
  }

  /** Stores the secret of the server's pre-registered client, or deletes it (`undefined`: a public client). */
  async writeClientSecret(server: string, secret: string | undefined): Promise<void> {
    const store = await this.secrets();
    if (secret === undefined) await store.delete(clientSecretAccountFor(server));
    else await store.set(clientSecretAccountFor(server), secret);
  }
}

/** A value written by this file, or nothing: one edited by hand into something else is ignored, not trusted. */
function parseStored(text: string | null): StoredSignIn | undefined {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Partial<StoredSignIn> | null;
    if (!value || typeof value !== 'object' || typeof value.url !== 'string') return undefined;
    return {
      url: value.url,
      ...(isObject(value.client) && typeof value.client.client_id === 'string' ? { client: value.client } : {}),
      ...(isObject(value.tokens) && typeof value.tokens.access_token === 'string' ? { tokens: value.tokens } : {}),
      ...(typeof value.scope === 'string' ? { scope: value.scope } : {}),
    };
  } catch {
    return undefined;
  }
}

function isObject<T>(value: T | undefined): value is T {
  return typeof value === 'object' && value !== null;
}
