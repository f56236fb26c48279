// Signing in to the browser UI of a team server (decision 017). Behind a load balancer the link `serve` prints
// cannot work: its token belongs to one process. So the UI also takes a management key of the gateway: the server
// checks it, stores a session (only the SHA-256 of its token) in the shared database, and sets the token as an
// HttpOnly SameSite=Strict cookie. Every instance checks the cookie against the database on each UI request, so a
// session works on all of them, and one signed out, expired, or whose key was deleted, disabled or lost its
// management right stops at once on all of them. Failed attempts are limited per address.

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/api/index.js';
import { lockedState, RateLimiter, type ApiKeys } from '../accounts/index.js';
import type { UiSessionStore } from '../store/index.js';

export const sessionCookieName = 'switchyard_session';

/** How long a sign-in lasts: a working day and a half; signing out or revoking the key ends it sooner. */
export const sessionLifetimeMs = 12 * 60 * 60 * 1000;

/** Failed sign-ins per address and minute before the address has to wait. */
const failuresPerMinute = 10;

export interface UiSignInOptions {
  keys: Pick<ApiKeys, 'authenticate' | 'rulesOf'>;
  sessions: UiSessionStore;
  now?: () => number;
}

export interface SignedIn {
  token: string;
  expiresAt: number;
}

function hashOf(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export class UiSignIn {
  private readonly keys: UiSignInOptions['keys'];
  private readonly sessions: UiSessionStore;
  private readonly now: () => number;
  private readonly failures: RateLimiter;

  constructor(options: UiSignInOptions) {
    this.keys = options.keys;
    this.sessions = options.sessions;
    this.now = options.now ?? Date.now;
    this.failures = new RateLimiter(this.now);
  }

  /**
   * A new session for the holder of a management key. Throws ApiError: 429 after too many failures from this
   * address, 401 for a string that is no live key, 403 for a key without the management right.
   */
  async signIn(secret: unknown, address: string): Promise<SignedIn> {
    const wait = this.failures.requestWait(address, failuresPerMinute);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new ApiError(
        429,
        `Too many failed sign-ins from this address: try again in ${seconds} s.`,
        {},
        {
          'retry-after': String(seconds),
        },
      );
    }
    try {
      const key = typeof secret === 'string' ? this.keys.authenticate(secret.trim()) : null;
      if (!key) throw new ApiError(401, 'That is not an API key of this Switchyard.');
      if (!key.management) {
        throw new ApiError(
          403,
          'Signing in to the UI needs a management key (switchyard keys create --management, or keys update ID --management).',
        );
      }
      const token = randomBytes(32).toString('base64url');
      const createdAt = this.now();
      const expiresAt = createdAt + sessionLifetimeMs;
      await this.sessions.create({
        id: randomUUID(),
        tokenHash: hashOf(token),
        keyId: key.id,
        createdAt,
        expiresAt,
        revokedAt: null,
      });
      return { token, expiresAt };
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        this.failures.noteRequest(address);
      }
      throw error;
    }
  }

  /** Whether this session token may use the UI now. */
  async check(token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const session = await this.sessions.findByTokenHash(hashOf(token));
    const now = this.now();
    if (!session || session.revokedAt !== null || session.expiresAt <= now) return false;
    // The key as every instance knows it now: deleted (no rules, so no management right), disabled, expired or no
    // longer a management key ends it.
    const rules = this.keys.rulesOf(session.keyId);
    return rules.management && lockedState(rules, now) === null;
  }

  /** Ends the session of this token, on every instance. */
  async signOut(token: string | undefined): Promise<void> {
    if (!token) return;
    const session = await this.sessions.findByTokenHash(hashOf(token));
    if (session) await this.sessions.revoke(session.id, this.now());
  }
}
