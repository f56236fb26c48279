// An OAuth-protected MCP server on 127.0.0.1 for the sign-in tests, built from the SDK's server auth helpers:
// mcpAuthRouter (authorization-server and protected-resource metadata, /authorize, /token, /register) and
// requireBearerAuth in front of a Streamable HTTP MCP endpoint at /mcp. Its authorization page approves at once,
// as a person who clicks "Allow" would; tests follow its redirect with fetch. Access tokens can be made to
// expire and refresh tokens revoked, to drive refreshes and lost sign-ins.
//
// What the client must listen to can be switched on: scopes every request needs, named only in the 401 challenge
// (`scopes`); scopes a tool's call needs on top, asked for with a 403 insufficient_scope naming only the missing
// ones (`toolScopes`); scopes the authorization server never grants (`withheldScopes`) or a server that always
// wants one more (`insatiable`); protected-resource metadata found only through the challenge
// (`resourceMetadataOnlyInChallenge`); and a client registered by hand, without dynamic registration, with the
// token endpoint authentication the metadata names (`preRegisteredClient`).

import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import express from 'express';
import { z } from 'zod';

/** The client ID metadata document the tests' entries name; the fixture "fetches" it from here. */
export const clientMetadataUrl = 'https://switchyard.example/oauth/client.json';

export interface OAuthMcpServerOptions {
  /** Advertise client ID metadata documents (client_id_metadata_document_supported). */
  clientIdMetadataDocuments?: boolean;
  /** Every request needs these scopes; the 401 challenge names them (the metadata's scopes_supported does not). */
  scopes?: string[];
  /** A call of the tool needs these scopes too; without them, 403 insufficient_scope naming the missing ones. */
  toolScopes?: Record<string, string[]>;
  /** The authorization server leaves these out of every grant. */
  withheldScopes?: string[];
  /** Every request needs one scope more than the last authorization asked for (`more-N`). */
  insatiable?: boolean;
  /** The protected-resource metadata is not at its well-known path, only where the 401 challenge says. */
  resourceMetadataOnlyInChallenge?: boolean;
  /** A client registered by hand; dynamic registration is off, and the metadata names only `authMethod`. */
  preRegisteredClient?: { clientId: string; clientSecret?: string; authMethod: TokenEndpointAuthMethod };
}

export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

interface Grant {
  clientId: string;
  params: AuthorizationParams;
}

interface IssuedToken {
  clientId: string;
  resource?: URL;
  scopes: string[];
  expired: boolean;
}

class TestAuthorizationServer implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly authorizations: AuthorizationParams[] = [];
  readonly registrations: OAuthClientInformationFull[] = [];
  /** How each token request authenticated its client, in order. */
  readonly tokenRequestAuthentications: TokenEndpointAuthMethod[] = [];
  refreshes = 0;
  private readonly codes = new Map<string, Grant>();
  readonly accessTokens = new Map<string, IssuedToken>();
  readonly refreshTokens = new Map<string, { clientId: string; scopes: string[] }>();
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(private readonly options: OAuthMcpServerOptions) {
    const preRegistered = options.preRegisteredClient;
    if (preRegistered) {
      this.clients.set(preRegistered.clientId, {
        client_id: preRegistered.clientId,
        ...(preRegistered.clientSecret ? { client_secret: preRegistered.clientSecret } : {}),
        redirect_uris: ['http://127.0.0.1/callback'],
      });
    }
    const getClient = (clientId: string) => {
      if (clientId === clientMetadataUrl) {
        return { client_id: clientId, client_name: 'Switchyard', redirect_uris: ['http://127.0.0.1/callback'] };
      }
      return this.clients.get(clientId);
    };
    const registerClient = (client: Omit<OAuthClientInformationFull, 'client_id'>) => {
      const registered = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
      this.clients.set(registered.client_id, registered);
      this.registrations.push(registered);
      return registered;
    };
    this.clientsStore = preRegistered ? { getClient } : { getClient, registerClient };
  }

  /** The scopes a token must hold for this request (its JSON-RPC body). */
  requiredScopes(body: unknown): string[] {
    const call = body as { method?: string; params?: { name?: string } } | undefined;
    const tool = call?.method === 'tools/call' ? call.params?.name : undefined;
    return [
      ...(this.options.scopes ?? []),
      ...((tool && this.options.toolScopes?.[tool]) || []),
      ...(this.options.insatiable ? [`more-${this.authorizations.length}`] : []),
    ];
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: express.Response) {
    this.authorizations.push(params);
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const grant = this.codes.get(code);
    if (!grant) throw new InvalidGrantError('unknown code');
    return grant.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const grant = this.codes.get(code);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown code');
    this.codes.delete(code);
    const withheld = this.options.withheldScopes ?? [];
    const scopes = (grant.params.scopes ?? []).filter((scope) => !withheld.includes(scope));
    return this.issue(client.client_id, grant.params.resource, scopes);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ) {
    const granted = this.refreshTokens.get(refreshToken);
    if (granted?.clientId !== client.client_id) throw new InvalidGrantError('refresh token revoked');
    this.refreshTokens.delete(refreshToken);
    this.refreshes += 1;
    return this.issue(client.client_id, resource, granted.scopes);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const issued = this.accessTokens.get(token);
    if (!issued || issued.expired) throw new InvalidTokenError('the access token expired');
    return {
      token,
      clientId: issued.clientId,
      scopes: issued.scopes,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      ...(issued.resource ? { resource: issued.resource } : {}),
    };
  }

  private issue(clientId: string, resource: URL | undefined, scopes: string[]): OAuthTokens {
    const accessToken = `access-${randomUUID()}`;
    const refreshToken = `refresh-${randomUUID()}`;
    this.accessTokens.set(accessToken, { clientId, scopes, expired: false, ...(resource ? { resource } : {}) });
    this.refreshTokens.set(refreshToken, { clientId, scopes });
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: refreshToken,
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }
}

export interface OAuthMcpServer {
  /** The MCP endpoint: http://127.0.0.1:PORT/mcp */
  url: string;
  authorizationServer: TestAuthorizationServer;
  /** Where the protected-resource metadata is served (the well-known path unless only in the challenge). */
  resourceMetadataUrl: string;
  /** How often that metadata was fetched. */
  resourceMetadataFetches(): number;
  /** Every access token issued so far stops working. */
  expireAccessTokens(): void;
  /** Every refresh token issued so far stops working. */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

export async function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  const authorizationServer = new TestAuthorizationServer(options);
  const app = express();
  const server = await new Promise<Server>((resolve) => {
    const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const mcpUrl = new URL('/mcp', base);
  const authMethod = options.preRegisteredClient?.authMethod;
  if (options.clientIdMetadataDocuments || authMethod) {
    const metadata = createOAuthMetadata({ provider: authorizationServer, issuerUrl: base });
    app.get('/.well-known/oauth-authorization-server', (_request, response) => {
      response.json({
        ...metadata,
        ...(options.clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
        ...(authMethod ? { token_endpoint_auth_methods_supported: [authMethod] } : {}),
      });
    });
  }
  // The SDK's token endpoint reads the client from the body only: an HTTP Basic one is moved there.
  app.post('/token', express.urlencoded({ extended: false }), (request, _response, next) => {
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const body = request.body as Record<string, string>;
    if (basic) {
      const [clientId, clientSecret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
      Object.assign(body, { client_id: clientId, client_secret: clientSecret });
    }
    authorizationServer.tokenRequestAuthentications.push(
      basic ? 'client_secret_basic' : body.client_secret ? 'client_secret_post' : 'none',
    );
    next();
  });
  const wellKnownResourceMetadata = new URL('/.well-known/oauth-protected-resource/mcp', base).href;
  const resourceMetadataUrl = options.resourceMetadataOnlyInChallenge
    ? new URL('/metadata/protected-resource.json', base).href
    : wellKnownResourceMetadata;
  let resourceMetadataFetches = 0;
  app.get(new URL(resourceMetadataUrl).pathname, (_request, response, next) => {
    resourceMetadataFetches += 1;
    if (!options.resourceMetadataOnlyInChallenge) return next();
    response.json({ resource: mcpUrl.href, authorization_servers: [base.href] });
  });
  if (options.resourceMetadataOnlyInChallenge) {
    app.get('/.well-known/oauth-protected-resource{/*rest}', (_request, response) => response.status(404).end());
  }
  app.use(mcpAuthRouter({ provider: authorizationServer, issuerUrl: base, resourceServerUrl: mcpUrl }));
  const bearer = bearerGate(authorizationServer, resourceMetadataUrl, options.scopes ?? []);
  app.all('/mcp', express.json(), bearer, async (request, response) => {
    // Stateless: a server and transport per request, as the SDK's examples do.
    const mcp = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
    mcp.registerTool('whoami', { inputSchema: { greeting: z.string().optional() } }, (_args, extra) => ({
      content: [{ type: 'text', text: `client ${extra.authInfo?.clientId ?? 'unknown'}` }],
    }));
    for (const tool of Object.keys(options.toolScopes ?? {})) {
      mcp.registerTool(tool, {}, () => ({ content: [{ type: 'text', text: `${tool} done` }] }));
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  return {
    url: mcpUrl.href,
    authorizationServer,
    resourceMetadataUrl,
    resourceMetadataFetches: () => resourceMetadataFetches,
    expireAccessTokens: () => {
      for (const token of authorizationServer.accessTokens.values()) token.expired = true;
    },
    revokeRefreshTokens: () => authorizationServer.refreshTokens.clear(),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The resource server's check of the bearer token (RFC 6750 §3): 401 without a good one, naming the metadata and
 * the scopes every request needs; 403 insufficient_scope naming the scopes this request lacks.
 */
function bearerGate(
  authorizationServer: TestAuthorizationServer,
  resourceMetadataUrl: string,
  scopes: string[],
): express.RequestHandler {
  return async (request, response, next) => {
    const token = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const info = token ? await authorizationServer.verifyAccessToken(token).catch(() => undefined) : undefined;
    const metadata = `resource_metadata="${resourceMetadataUrl}"`;
    if (!info) {
      const scope = scopes.length > 0 ? `, scope="${scopes.join(' ')}"` : '';
      response.set('WWW-Authenticate', `Bearer error="invalid_token", ${metadata}${scope}`);
      response.status(401).json({ error: 'invalid_token' });
      return;
    }
    const missing = authorizationServer.requiredScopes(request.body).filter((scope) => !info.scopes.includes(scope));
    if (missing.length > 0) {
      const challenge = `Bearer error="insufficient_scope", scope="${missing.join(' ')}", ${metadata}`;
      response.set('WWW-Authenticate', challenge);
      response.status(403).json({ error: 'insufficient_scope' });
      return;
    }
    (request as express.Request & { auth?: AuthInfo }).auth = info;
    next();
  };
}

/** What a person's browser does on the authorization page: follow its redirect back to our loopback listener. */
export async function approveInBrowser(authorizationUrl: URL): Promise<void> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = page.headers.get('location');
  if (page.status !== 302 || !location)
    throw new Error(`the authorization page answered ${page.status}: ${await page.text()}`);
  const back = await fetch(location);
  if (!back.ok) throw new Error(`the loopback callback answered ${back.status}: ${await back.text()}`);
}
