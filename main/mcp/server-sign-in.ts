// A remote server's OAuth sign-in as its connection uses it: the stored sign-in a start connects with, and the
// browser sign-in that stores a new one (see oauth/sign-in.ts). The connection restarts itself to use it.
//
// A sign-in listens to the server (decision 036): it first makes a real request without a token to hear the 401
// challenge (where the protected-resource metadata is, which scope to ask for), asks for that scope widened by the
// insufficient_scope challenges heard before, and counts as done only once the handshake with the new token works.
// When that handshake is refused for want of a wider scope, it signs in again for the union, as often as the
// caller allows (a terminal can open the browser again; the UI's one-shot page cannot).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expandServerConfig } from './expand-env.js';
import type { LogBuffer } from './log-buffer.js';
import {
  coversScope,
  scopeUnion,
  ServerOAuthProvider,
  signIn,
  SignInRequiredError,
  type OAuthCredentials,
  type PreRegisteredClient,
} from './oauth/index.js';
import { closeSession, openTransport, type Session } from './server-session.js';
import { defaultStartupTimeoutSeconds, type RemoteServerConfig, type ServerConfig } from './settings-schema.js';

export interface SignInRequest {
  /** Sends the person to the authorization server's page (a browser, a printed link, the UI). */
  openAuthorizationUrl(url: URL): void | Promise<void>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * How many browser sign-ins this request may take when the server wants a wider scope than the first one got
   * (step-up authorization); 1 when unset. Bounded, so a server that is never satisfied cannot loop.
   */
  maxAuthorizations?: number;
}

/** One server's sign-in, as its connection sees it. */
export interface ServerSignInContext {
  server: string;
  /** Unset: sign-ins cannot be stored here. */
  credentials: OAuthCredentials | undefined;
  log: LogBuffer;
  /** How Switchyard introduces itself in the handshakes a sign-in makes. */
  clientInfo?: { name: string; version: string };
}

/**
 * The stored sign-in for a remote server, when sign-ins can be stored and the store answers. `setSignedIn` hears
 * whether one is stored (false first, and when the store cannot be read).
 */
export async function storedOAuthProvider(
  context: ServerSignInContext,
  config: RemoteServerConfig,
  setSignedIn: (signedIn: boolean) => void,
): Promise<ServerOAuthProvider | undefined> {
  const { credentials, server } = context;
  setSignedIn(false);
  if (!credentials) return undefined;
  let stored;
  let preRegistered;
  try {
    stored = await credentials.read(server, config.url);
    preRegistered = await preRegisteredClient(credentials, server, config);
  } catch (error) {
    context.log.add(
      'switchyard',
      `No OAuth sign-in: the secret store could not be read (${(error as Error).message}).`,
    );
    return undefined;
  }
  setSignedIn(stored.tokens !== undefined);
  return new ServerOAuthProvider({
    server,
    credentials,
    stored,
    ...(config.oauth?.clientMetadataUrl ? { clientMetadataUrl: config.oauth.clientMetadataUrl } : {}),
    ...(preRegistered ? { preRegistered } : {}),
  });
}

/**
 * Signs in to a remote server in the person's browser and stores the tokens. `onFailed` hears the message a failed
 * sign-in rejects with, before it does.
 */
export async function signInToServer(
  context: ServerSignInContext,
  settings: ServerConfig,
  environment: NodeJS.ProcessEnv,
  request: SignInRequest,
  onFailed: (message: string) => void,
): Promise<void> {
  const { credentials, log, server } = context;
  if (settings.transport === 'stdio') throw new Error(`Server "${server}" runs locally: it has no sign-in.`);
  if (!credentials) throw new Error('Sign-ins cannot be stored here (no secret store).');
  const { value: config } = expandServerConfig(settings, environment);
  const remote = config as RemoteServerConfig;
  try {
    const preRegistered = await preRegisteredClient(credentials, server, remote);
    const probe = new ServerOAuthProvider({ server, credentials, stored: { url: remote.url } });
    await handshake(context, remote, probe).catch(() => undefined); // only its challenge matters
    const challenge = probe.challenge;
    let scope = (await credentials.read(server, remote.url)).scope;
    for (let authorization = 1; ; authorization += 1) {
      log.add('switchyard', `Signing in to ${remote.url}: waiting for the browser.`);
      const wanted = scopeUnion(challenge?.scope, scope);
      const asked = await signIn({
        server,
        url: remote.url,
        credentials,
        ...(remote.oauth?.clientMetadataUrl ? { clientMetadataUrl: remote.oauth.clientMetadataUrl } : {}),
        ...(preRegistered ? { preRegistered } : {}),
        ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
        ...(wanted ? { scope: wanted } : {}),
        openAuthorizationUrl: request.openAuthorizationUrl,
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const needed = await refusedScope(context, remote);
      if (needed === undefined) break;
      if (coversScope(asked, needed)) {
        throw new Error(
          `the server still refuses: it needs scope "${needed}", which the authorization server did not grant`,
        );
      }
      if (authorization >= (request.maxAuthorizations ?? 1)) {
        throw new Error(`the server needs more access (scope "${needed}"): sign in again to grant it`);
      }
      log.add('switchyard', `The server needs more access (scope "${needed}"): signing in again.`);
      scope = needed;
    }
  } catch (error) {
    const message = `Sign-in failed: ${(error as Error).message}.`;
    log.add('switchyard', message);
    onFailed(message);
    throw new Error(message, { cause: error });
  }
  log.add('switchyard', 'Signed in; the tokens are in the secret store.');
}

/**
 * Makes the handshake with the stored sign-in: undefined when it works, the scope the server wants when it refused
 * the token as too narrow; throws what else went wrong.
 */
async function refusedScope(context: ServerSignInContext, config: RemoteServerConfig): Promise<string | undefined> {
  const provider = await storedOAuthProvider(context, config, () => undefined);
  try {
    await handshake(context, config, provider);
    return undefined;
  } catch (error) {
    if (error instanceof SignInRequiredError && error.neededScope !== undefined) return error.neededScope;
    const why = error instanceof SignInRequiredError ? 'it did not take the new token' : (error as Error).message;
    throw new Error(`the first request with the new token failed: ${why}`, { cause: error });
  }
}

/** What a connection's start does (initialize, then the tool list), once, and closed again. */
async function handshake(
  context: ServerSignInContext,
  config: RemoteServerConfig,
  oauth: ServerOAuthProvider | undefined,
): Promise<void> {
  const { transport } = openTransport({ config, ...(oauth ? { oauth } : {}) }, config.transport, config, {
    log: context.log,
    onNonProtocolLine: () => undefined,
  });
  const client = new Client(context.clientInfo ?? { name: 'Switchyard', version: '0' });
  const session: Session = { client, transport, ready: false, closed: false };
  const timeout = (config.startupTimeoutSeconds ?? defaultStartupTimeoutSeconds) * 1000;
  try {
    await client.connect(transport, { timeout });
    if (client.getServerCapabilities()?.tools) await client.listTools(undefined, { timeout });
  } finally {
    await closeSession(session, false);
  }
}

async function preRegisteredClient(
  credentials: OAuthCredentials,
  server: string,
  config: RemoteServerConfig,
): Promise<PreRegisteredClient | undefined> {
  const clientId = config.oauth?.clientId;
  if (!clientId) return undefined;
  const clientSecret = await credentials.readClientSecret(server);
  return { clientId, ...(clientSecret === undefined ? {} : { clientSecret }) };
}
