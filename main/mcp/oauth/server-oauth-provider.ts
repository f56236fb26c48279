// The SDK's OAuthClientProvider for one remote MCP server, over what OAuthCredentials stores. It has two uses:
//
// - a connection (no `signIn`): sends the stored access token and lets the SDK refresh it when the server answers
//   401. It never registers a client and never sends anyone to a browser: when the stored sign-in does not do,
//   it throws SignInRequiredError and the server shows "needs sign-in" until the person signs in.
// - a sign-in (`signIn` set): registers a client when needed (a client ID metadata document when the entry names
//   one and the server supports them, else dynamic registration), and hands the authorization URL to
//   `signIn.openAuthorizationUrl`; the code comes back to `signIn.redirectUrl` (a loopback listener).
//
// A client the person registered with the authorization server themselves (`preRegistered`: the entry's
// `oauth.clientId` and the secret from the secret store) is used as given and never registered or stored. Its
// token_endpoint_auth_method is left to the SDK, which picks basic, post or none from what the authorization
// server's metadata supports. Both uses watch the MCP endpoint's Bearer challenges (`fetch`, see challenge.ts): a
// 403 insufficient_scope to a request with a token stores the wider scope for the next sign-in and ends in
// SignInRequiredError, as only a new browser sign-in can widen a grant.

import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { scopeUnion, watchChallenges, type BearerChallenge } from './challenge.js';
import type { OAuthCredentials, StoredSignIn } from './credential-store.js';

export const clientName = 'Switchyard';

/** What `auth()` needs to hear for the connection to stop and show "needs sign-in". */
export class SignInRequiredError extends Error {
  override readonly name = 'SignInRequiredError';
  constructor(
    readonly server: string,
    /** The server described an OAuth sign-in (protected-resource or authorization-server metadata). */
    readonly offersOAuth: boolean,
    /** The token was too narrow (403 insufficient_scope): the scope the next sign-in asks for. */
    readonly neededScope?: string,
  ) {
    const how = `use Sign in on the MCP screen, or run switchyard mcp login ${server}`;
    super(
      neededScope !== undefined
        ? `Server "${server}" needs more access (scope "${neededScope}"): sign in again to grant it: ${how}.`
        : offersOAuth
          ? `Server "${server}" needs sign-in: ${how}.`
          : `Server "${server}" asks for credentials but describes no OAuth sign-in.`,
    );
  }
}

/** A client registered by hand with the authorization server (the entry's `oauth.clientId`). */
export interface PreRegisteredClient {
  clientId: string;
  /** From the secret store; absent for a public client. */
  clientSecret?: string;
}

export interface ServerOAuthProviderOptions {
  server: string;
  credentials: OAuthCredentials;
  /** What is stored for the server now (OAuthCredentials.read). */
  stored: StoredSignIn;
  /** An https URL of Switchyard's client ID metadata document, from the entry's `oauth.clientMetadataUrl`. */
  clientMetadataUrl?: string;
  preRegistered?: PreRegisteredClient;
  signIn?: {
    redirectUrl: string;
    state: string;
    openAuthorizationUrl(url: URL): void | Promise<void>;
  };
}

// Connections never use it to ask for a code; the SDK only needs some redirect URL to know the flow is the
// authorization-code one (without one it tries client credentials).
const placeholderRedirectUrl = 'http://127.0.0.1/callback';

export class ServerOAuthProvider implements OAuthClientProvider {
  private stored: StoredSignIn;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  /** The scope of the authorization under way, as the authorization URL asks for it. */
  private requestedScope: string | undefined;
  readonly clientMetadataUrl: string | undefined;
  /** The last Bearer challenge of the MCP endpoint: what a sign-in starts from. */
  challenge: BearerChallenge | undefined;
  /** For the transport: watches the MCP endpoint's challenges (see the top of this file). */
  readonly fetch: FetchLike;

  constructor(private readonly options: ServerOAuthProviderOptions) {
    this.stored = options.stored;
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.fetch = watchChallenges(options.stored.url, (challenge) => this.heard(challenge));
  }

  /** The scope a sign-in asked for last, widened by the insufficient_scope challenges heard since. */
  get storedScope(): string | undefined {
    return this.stored.scope;
  }

  /** Whether discovery found a sign-in to offer: protected-resource or authorization-server metadata. */
  get offersOAuth(): boolean {
    return Boolean(this.discovery?.resourceMetadata || this.discovery?.authorizationServerMetadata);
  }

  get redirectUrl(): string {
    return this.options.signIn?.redirectUrl ?? placeholderRedirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app keeps no secret worth the name: a public client, protected by PKCE.
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.options.signIn?.state ?? '';
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const preRegistered = this.options.preRegistered;
    if (preRegistered) {
      const secret = preRegistered.clientSecret;
      return { client_id: preRegistered.clientId, ...(secret === undefined ? {} : { client_secret: secret }) };
    }
    const client = this.stored.client;
    if (!this.options.signIn) {
      if (!client) throw new SignInRequiredError(this.options.server, this.offersOAuth);
      return client;
    }
    // A registration names the redirect URIs it may use; the loopback port differs between sign-ins.
    const redirectUris = client && 'redirect_uris' in client ? client.redirect_uris : undefined;
    if (redirectUris && !redirectUris.includes(this.redirectUrl)) return undefined;
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (this.options.preRegistered) return; // its secret stays in its own slot of the secret store
    if (!this.options.signIn) throw new SignInRequiredError(this.options.server, this.offersOAuth);
    await this.save({ ...this.stored, client });
  }

  /** A sign-in starts afresh (it may be to change accounts); a connection sends what is stored. */
  tokens(): OAuthTokens | undefined {
    return this.options.signIn ? undefined : this.stored.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const scope = this.requestedScope ?? this.stored.scope;
    await this.save({ ...this.stored, tokens, ...(scope === undefined ? {} : { scope }) });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.options.signIn) throw new SignInRequiredError(this.options.server, true);
    this.requestedScope = authorizationUrl.searchParams.get('scope') ?? undefined;
    await this.options.signIn.openAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('No sign-in is under way for this server.');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /** The server said the stored client or tokens are no good (invalid_client, invalid_grant): forget them. */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'verifier' || scope === 'discovery') return;
    const { client, tokens, ...rest } = this.stored;
    void tokens; // tokens go with the client they were issued to
    await this.save(scope === 'tokens' && client ? { ...rest, client } : rest);
  }

  private async heard(challenge: BearerChallenge): Promise<void> {
    this.challenge = challenge;
    const tokens = this.tokens();
    // Without a token sent, a 403 says nothing about its scope.
    if (challenge.status !== 403 || challenge.error !== 'insufficient_scope' || !tokens) return;
    // The union (SEP-2350): what the token was granted for stays needed by the requests that worked with it.
    const neededScope = scopeUnion(this.stored.scope, tokens.scope, challenge.scope);
    if (neededScope !== undefined) await this.save({ ...this.stored, scope: neededScope });
    throw new SignInRequiredError(this.options.server, true, neededScope);
  }

  private async save(signIn: StoredSignIn): Promise<void> {
    this.stored = signIn;
    await this.options.credentials.write(this.options.server, signIn);
  }
}
