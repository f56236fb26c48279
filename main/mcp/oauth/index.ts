// OAuth for remote MCP servers: the stored sign-in, the provider connections use, and the browser sign-in.

export { coversScope, scopeUnion, type BearerChallenge } from './challenge.js';
export {
  clientSecretAccountFor,
  OAuthCredentials,
  oauthAccountFor,
  type SecretSlots,
  type StoredSignIn,
} from './credential-store.js';
export {
  ServerOAuthProvider,
  SignInRequiredError,
  type PreRegisteredClient,
  type ServerOAuthProviderOptions,
} from './server-oauth-provider.js';
export { defaultSignInTimeoutMs, signIn, type SignInOptions } from './sign-in.js';
