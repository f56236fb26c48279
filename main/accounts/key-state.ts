// Whether a key works and what is left of its spend limit, decided once: the gateway's 401 and 402 checks,
// GET /api/v1/key, the bridge's key list (the UI) and `switchyard keys list` all read it from here, at the clock
// the caller passes in.

import { nanosToUsd, type KeyStanding, type KeyState, type LimitReset } from '../../shared/api/index.js';
import type { KeyRulesRow } from '../store/index.js';
import { windowEnd } from './usage-windows.js';

/** The rules that decide a key's state. */
export type StateRules = Pick<KeyRulesRow, 'disabled' | 'expiresAt' | 'limitNanos' | 'limitReset'>;

/** 'disabled' or 'expired' at `now` (the states in which the key's own secret gets 401), else null. */
export function lockedState(
  rules: Pick<KeyRulesRow, 'disabled' | 'expiresAt'>,
  now: number,
): Extract<KeyState, 'disabled' | 'expired'> | null {
  if (rules.disabled) return 'disabled';
  if (rules.expiresAt !== null && rules.expiresAt <= now) return 'expired';
  return null;
}

/** Whether the spend of the current window reached the limit: from then on the key's requests get 402. */
export function limitReached(rules: Pick<KeyRulesRow, 'limitNanos'>, windowSpentNanos: number): boolean {
  return rules.limitNanos !== null && windowSpentNanos >= rules.limitNanos;
}

/** USD left of the limit in the current window; null without a limit, negative after an overspend. */
export function limitRemaining(rules: Pick<KeyRulesRow, 'limitNanos'>, windowSpentNanos: number): number | null {
  return rules.limitNanos === null ? null : nanosToUsd(rules.limitNanos - windowSpentNanos);
}

/** ISO 8601: when the window that contains `now` ends and the limit starts over; null when it never resets. */
export function limitResetsAt(reset: LimitReset, now: number): string | null {
  const end = windowEnd(reset, now);
  return end === null ? null : new Date(end).toISOString();
}

/** The state (locked first, then the limit, as the gateway checks), the limit left and when it starts over. */
export function keyStanding(rules: StateRules, windowSpentNanos: number, now: number): KeyStanding {
  return {
    state: lockedState(rules, now) ?? (limitReached(rules, windowSpentNanos) ? 'limit_reached' : 'active'),
    limit_remaining: limitRemaining(rules, windowSpentNanos),
    limit_resets_at: rules.limitNanos === null ? null : limitResetsAt(rules.limitReset, now),
  };
}
