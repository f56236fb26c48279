// A remote server's OAuth sign-in as its connection uses it: the stored sign-in a start connects with, and the
// browser sign-in that stores a new one (see oauth/sign-in.ts). The connection restarts itself to use it.

import { expandServerConfig } from './expand-env.js';
import type { LogBuffer } from './log-buffer.js';
import { ServerOAuthProvider, signIn, type OAuthCredentials } from './oauth/index.js';
import type { RemoteServerConfig, ServerConfig } from './settings-schema.js';

export interface SignInRequest {
  /** Sends the person to the authorization server's page (a browser, a printed link, the UI). */
  openAuthorizationUrl(url: URL): void | Promise<void>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** One server's sign-in, as its connection sees it. */
export interface ServerSignInContext {
  server: string;
  /** Unset: sign-ins cannot be stored here. */
  credentials: OAuthCredentials | undefined;
  log: LogBuffer;
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
  try {
    stored = await credentials.read(server, config.url);
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
  log.add('switchyard', `Signing in to ${remote.url}: waiting for the browser.`);
  try {
    await signIn({
      server,
      url: remote.url,
      credentials,
      ...(remote.oauth?.clientMetadataUrl ? { clientMetadataUrl: remote.oauth.clientMetadataUrl } : {}),
      openAuthorizationUrl: request.openAuthorizationUrl,
      ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  } catch (error) {
    const message = `Sign-in failed: ${(error as Error).message}.`;
    log.add('switchyard', message);
    onFailed(message);
    throw new Error(message, { cause: error });
  }
  log.add('switchyard', 'Signed in; the tokens are in the secret store.');
}
