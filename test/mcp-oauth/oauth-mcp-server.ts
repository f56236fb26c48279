// An OAuth-protected MCP server on 127.0.0.1 for the sign-in tests, built from the SDK's server auth helpers:
// mcpAuthRouter (authorization-server and protected-resource metadata, /authorize, /token, /register) and
// requireBearerAuth in front of a Streamable HTTP MCP endpoint at /mcp. Its authorization page approves at once,
// as a person who clicks "Allow" would; tests follow its redirect with fetch. Access tokens can be made to
// expire and refresh tokens revoked, to drive refreshes and lost sign-ins.

import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
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
}

interface Grant {
  clientId: string;
  params: AuthorizationParams;
}

interface IssuedToken {
  clientId: string;
  resource?: URL;
  expired: boolean;
}

class TestAuthorizationServer implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly authorizations: AuthorizationParams[] = [];
  readonly registrations: OAuthClientInformationFull[] = [];
  refreshes = 0;
  private readonly codes = new Map<string, Grant>();
  readonly accessTokens = new Map<string, IssuedToken>();
  readonly refreshTokens = new Map<string, string>();

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) => {
      if (clientId === clientMetadataUrl) {
        return { client_id: clientId, client_name: 'Switchyard', redirect_uris: ['http://127.0.0.1/callback'] };
      }
      return this.clients.get(clientId);
    },
    registerClient: (client) => {
      const registered = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
      this.clients.set(registered.client_id, registered);
      this.registrations.push(registered);
      return registered;
    },
  };

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
    return this.issue(client.client_id, grant.params.resource);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ) {
    if (this.refreshTokens.get(refreshToken) !== client.client_id) throw new InvalidGrantError('refresh token revoked');
    this.refreshTokens.delete(refreshToken);
    this.refreshes += 1;
    return this.issue(client.client_id, resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const issued = this.accessTokens.get(token);
    if (!issued || issued.expired) throw new InvalidTokenError('the access token expired');
    return {
      token,
      clientId: issued.clientId,
      scopes: [],
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      ...(issued.resource ? { resource: issued.resource } : {}),
    };
  }

  private issue(clientId: string, resource: URL | undefined): OAuthTokens {
    const accessToken = `access-${randomUUID()}`;
    const refreshToken = `refresh-${randomUUID()}`;
    this.accessTokens.set(accessToken, { clientId, expired: false, ...(resource ? { resource } : {}) });
    this.refreshTokens.set(refreshToken, clientId);
    return { access_token: accessToken, token_type: 'bearer', expires_in: 3600, refresh_token: refreshToken };
  }
}

export interface OAuthMcpServer {
  /** The MCP endpoint: http://127.0.0.1:PORT/mcp */
  url: string;
  authorizationServer: TestAuthorizationServer;
  /** Every access token issued so far stops working. */
  expireAccessTokens(): void;
  /** Every refresh token issued so far stops working. */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

export async function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  const authorizationServer = new TestAuthorizationServer();
  const app = express();
  const server = await new Promise<Server>((resolve) => {
    const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const mcpUrl = new URL('/mcp', base);
  if (options.clientIdMetadataDocuments) {
    const metadata = createOAuthMetadata({ provider: authorizationServer, issuerUrl: base });
    app.get('/.well-known/oauth-authorization-server', (_request, response) => {
      response.json({ ...metadata, client_id_metadata_document_supported: true });
    });
  }
  app.use(mcpAuthRouter({ provider: authorizationServer, issuerUrl: base, resourceServerUrl: mcpUrl }));
  const bearer = requireBearerAuth({
    verifier: authorizationServer,
    resourceMetadataUrl: new URL('/.well-known/oauth-protected-resource/mcp', base).href,
  });
  app.all('/mcp', bearer, async (request, response) => {
    // Stateless: a server and transport per request, as the SDK's examples do.
    const mcp = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
    mcp.registerTool('whoami', { inputSchema: { greeting: z.string().optional() } }, (_args, extra) => ({
      content: [{ type: 'text', text: `client ${extra.authInfo?.clientId ?? 'unknown'}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(request, response);
  });
  return {
    url: mcpUrl.href,
    authorizationServer,
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

/** What a person's browser does on the authorization page: follow its redirect back to our loopback listener. */
export async function approveInBrowser(authorizationUrl: URL): Promise<void> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = page.headers.get('location');
  if (page.status !== 302 || !location)
    throw new Error(`the authorization page answered ${page.status}: ${await page.text()}`);
  const back = await fetch(location);
  if (!back.ok) throw new Error(`the loopback callback answered ${back.status}: ${await back.text()}`);
}
