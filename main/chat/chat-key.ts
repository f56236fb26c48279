// The gateway API key the chat uses for itself. Chat requests go through the gateway like any caller's, so they
// need a key: one named "Switchyard Chat" is created on first use, its secret kept in the secret store (never
// shown), and a new one is made when the user deleted it. Keys that the user disabled or that expired are
// respected: the chat reports it instead of quietly making another.

import { chatKeyName } from '../../shared/bridge/chat-message.js';
import type { SecretStore } from '../secrets/index.js';
import { ChatError } from './chat-error.js';

export { chatKeyName };
export const chatKeyAccount = 'switchyard-chat:gateway-key';

export interface ChatKeyIssuer {
  /** Creates a key and returns its secret. */
  create(name: string, rules: { management: boolean }): Promise<{ key: string }>;
  /** Whether this secret is a live key; throws for a disabled or expired one. */
  authenticate(secret: string): unknown;
}

export class ChatKey {
  private current: Promise<string> | undefined;

  constructor(
    private readonly issuer: ChatKeyIssuer,
    private readonly secrets: () => Promise<SecretStore>,
  ) {}

  /** The secret to send; created on first use. */
  get(): Promise<string> {
    this.current ??= this.load().catch((error: unknown) => {
      this.current = undefined;
      throw error;
    });
    return this.current;
  }

  /** After a 401: the key is gone (deleted by the user), so make a new one unless it was disabled. */
  renew(): Promise<string> {
    this.current = undefined;
    return this.get();
  }

  private async load(): Promise<string> {
    const store = await this.secrets();
    store.invalidate(chatKeyAccount); // another process may have renewed it
    const stored = await store.get(chatKeyAccount);
    if (stored && this.isLive(stored)) return stored;
    // The chat only sends chat requests: its key needs no right to list or delete the user's keys.
    const { key } = await this.issuer.create(chatKeyName, { management: false });
    await store.set(chatKeyAccount, key);
    return key;
  }

  private isLive(secret: string): boolean {
    try {
      return this.issuer.authenticate(secret) !== null;
    } catch (error) {
      throw new ChatError(
        'unavailable',
        `The chat's gateway key "${chatKeyName}" cannot be used: ${(error as Error).message}`,
      );
    }
  }
}
