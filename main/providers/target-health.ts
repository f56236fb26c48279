// Cooldowns: a circuit breaker per target (`<provider>/<model>`). A target that fails in a way that says "this
// deployment is in trouble" (429, 5xx, a timeout, a refused or lost connection) N times within a window is cooled
// down: no request goes to it, and nobody waits on it (the attempt loop skips it with a 503 and Retry-After and falls
// back). When the cooldown ends, one trial request is let through (half-open): an answer makes the target healthy,
// a failure cools it again for twice as long, up to a cap. An upstream's Retry-After sets the cooldown when longer.
// The clock is passed in. With a store, every change of state (not every request) is written to it, and what other
// processes or instances wrote is read back when the store's change version moves: a cooldown is shared by a team's
// instances (PostgreSQL's change notification) and by every process on one SQLite file. Failures are counted per
// process; the cooldown, once decided, holds everywhere. See docs/decisions/030-cooldowns.md.

import type { Logger } from 'pino';
import {
  defaultProviderCooldown,
  effectiveCooldown,
  type ProviderCooldown,
  type ProviderInfo,
  type TargetHealthInfo,
  type TargetHealthState,
} from '../../shared/api/index.js';
import type { Store } from '../store/index.js';
import type { TargetHealthRow } from '../store/contract/target-health.js';
import { parseRetryAfter, UpstreamError } from './http/upstream-errors.js';

export interface CooldownSettings {
  /** Failures that count, within `windowMs`, that cool a target down. 0 turns cooldowns off. */
  failuresToCool: number;
  windowMs: number;
  /** The first cooldown; it doubles with every failed trial, up to `maxCooldownMs`. */
  cooldownMs: number;
  maxCooldownMs: number;
}

export const defaultCooldownSettings: Readonly<CooldownSettings> = Object.freeze({
  failuresToCool: defaultProviderCooldown.after,
  windowMs: defaultProviderCooldown.windowSeconds * 1000,
  cooldownMs: defaultProviderCooldown.seconds * 1000,
  maxCooldownMs: defaultProviderCooldown.maxSeconds * 1000,
});

/** A provider's settings: its stored ones over the defaults; null when it turned cooldowns off (`after: 0`). */
export function cooldownSettingsOf(cooldown: ProviderCooldown | undefined): CooldownSettings | null {
  const effective = effectiveCooldown(cooldown);
  if (effective === null) return null;
  return { ...defaultCooldownSettings, failuresToCool: effective.after, cooldownMs: effective.seconds * 1000 };
}

/** How long a claimed trial holds the target before another may be let through (the trial's caller vanished). */
const trialLeaseMs = 60_000;
/** What others are told to wait while a trial runs: it is decided within one request's time. */
const trialWaitMs = 1_000;

/** One target's state as metrics and screens read it. `until`: ms since the epoch the cooldown ends (or null). */
export interface TargetStateInfo {
  model: string;
  provider: string;
  state: TargetHealthState;
  until: number | null;
}

interface Target {
  provider: string;
  state: TargetHealthState;
  /** Times of the recent failures that count, oldest first (healthy only); at most failuresToCool of them. */
  failures: number[];
  /** Cooling: when it ends. Trial: when the claim lapses. */
  until: number;
  /** The cooldown the next failure of a trial gets (doubling). */
  nextCooldownMs: number;
  /** When this state began; the newer of two states wins. */
  updatedAt: number;
  /** Whether the store has this state (a state not yet written is not undone by an older read). */
  stored: boolean;
}

export type TargetHealthStore = Pick<
  Store,
  'listTargetHealth' | 'setTargetHealth' | 'removeTargetHealth' | 'changeVersion'
>;

export interface TargetHealthOptions {
  /** The settings of a provider's targets; null turns cooldowns off for it. Default: the defaults for all. */
  settingsFor?: (providerId: string) => CooldownSettings | null;
  now?: () => number;
  /** Where the state is shared; without it, it stays in this process. */
  store?: TargetHealthStore;
  /** Told when writing the state fails (the cooldown still holds in this process). */
  logger?: Pick<Logger, 'warn'>;
}

/** Whether a failed attempt says the target is in trouble (not: the request was bad, or the caller left). */
export function failureCounts(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  const status = error.upstreamStatus;
  if (status !== undefined) return status === 408 || status === 429 || status >= 500;
  // No HTTP answer: a timeout (504) or a refused, unreachable or lost connection (retryable 502). A malformed answer
  // or an invalid base URL is not the deployment being down.
  return error.status === 504 || error.retryable;
}

export class TargetHealth {
  private readonly targets = new Map<string, Target>();
  private readonly settingsFor: (providerId: string) => CooldownSettings | null;
  private readonly now: () => number;
  private readonly store: TargetHealthStore | undefined;
  private readonly logger: Pick<Logger, 'warn'> | undefined;
  private seenVersion: number | undefined;

  constructor(options: TargetHealthOptions = {}) {
    this.settingsFor = options.settingsFor ?? (() => defaultCooldownSettings);
    this.now = options.now ?? Date.now;
    this.store = options.store;
    this.logger = options.logger;
  }

  /**
   * Null when a request may go to `model` now: healthy, or the one trial of a cooled target, which this call
   * claims. Else until when it is refused. One Map read for a target that never failed.
   */
  refusedUntil(model: string, now: number): number | null {
    this.readShared();
    const target = this.targets.get(model);
    if (target === undefined || target.state === 'healthy') return null;
    if (now < target.until) {
      return target.state === 'cooling' ? target.until : Math.min(target.until, now + trialWaitMs);
    }
    this.change(model, { ...target, state: 'trial', until: now + trialLeaseMs, updatedAt: now });
    return null;
  }

  /** An attempt on `model` of provider `provider` failed with `error`. */
  failed(model: string, provider: string, error: unknown, now = this.now()): void {
    const target = this.targets.get(model);
    if (!failureCounts(error)) {
      // A trial that ended without a verdict (the caller left) frees the claim; an upstream that answered 4xx is up.
      if (target?.state !== 'trial') return;
      if (error instanceof UpstreamError && error.upstreamStatus !== undefined) this.answered(model);
      else this.change(model, { ...target, state: 'cooling', until: now, updatedAt: now });
      return;
    }
    const settings = this.settingsFor(provider);
    if (settings === null || settings.failuresToCool <= 0) return;
    const retryAfterMs = error instanceof UpstreamError ? (parseRetryAfter(error.retryAfter, now) ?? 0) : 0;
    if (target === undefined || target.state === 'healthy') {
      const failures = (target?.failures ?? []).filter((at) => now - at < settings.windowMs);
      failures.push(now);
      if (failures.length < settings.failuresToCool) {
        this.targets.set(model, {
          provider,
          state: 'healthy',
          failures,
          until: 0,
          nextCooldownMs: settings.cooldownMs,
          updatedAt: now,
          stored: true,
        });
        return;
      }
      this.cool(model, provider, settings.cooldownMs, retryAfterMs, settings, now);
      return;
    }
    if (target.state === 'trial') {
      this.cool(model, provider, target.nextCooldownMs, retryAfterMs, settings, now);
      return;
    }
    // Cooling already (an attempt that started before it cooled): only a longer Retry-After moves the end.
    if (now + retryAfterMs > target.until) this.change(model, { ...target, until: now + retryAfterMs, updatedAt: now });
  }

  /** An attempt on `model` was answered: the target is healthy again. */
  answered(model: string): void {
    const target = this.targets.get(model);
    if (target === undefined) return;
    this.targets.delete(model);
    if (target.state !== 'healthy') this.write(model, null);
  }

  /** Every target that is not plainly healthy (cooling, on trial, or healthy with recent failures), by model. */
  states(now = this.now()): TargetStateInfo[] {
    this.readShared();
    return [...this.targets.entries()]
      .map(([model, target]) => infoOf(model, target, now))
      .sort((a, b) => a.model.localeCompare(b.model));
  }

  /** The state of one target. */
  stateOf(model: string, now = this.now()): TargetStateInfo | undefined {
    this.readShared();
    const target = this.targets.get(model);
    return target === undefined ? undefined : infoOf(model, target, now);
  }

  /**
   * What follows one attempt on `model` of provider `provider`: the gateway's generation watchers (wired in
   * main/app) tell it the attempt's outcome.
   */
  /**
   * What follows one request's attempts (a generation watch): its failures on one target count once, however often
   * the gateway retried it, so that one unlucky request does not cool a target; three failed requests do.
   */
  generationWatch(): { attempt(model: string, provider: string): { answered(): void; failed(error: unknown): void } } {
    let counted: Set<string> | undefined;
    return {
      attempt: (model, provider) => ({
        answered: () => this.answered(model),
        failed: (error) => {
          if (counted?.has(model)) return;
          if (failureCounts(error)) (counted ??= new Set()).add(model);
          this.failed(model, provider, error);
        },
      }),
    };
  }

  private cool(
    model: string,
    provider: string,
    cooldownMs: number,
    retryAfterMs: number,
    settings: CooldownSettings,
    now: number,
  ): void {
    const capped = Math.min(cooldownMs, settings.maxCooldownMs);
    this.change(model, {
      provider,
      state: 'cooling',
      failures: [],
      until: now + Math.max(capped, retryAfterMs),
      nextCooldownMs: Math.min(capped * 2, settings.maxCooldownMs),
      updatedAt: now,
      stored: false,
    });
  }

  /** A new cooling or trial state: kept here at once, written to the store behind. */
  private change(model: string, target: Target): void {
    const changed: Target = { ...target, stored: this.store === undefined };
    this.targets.set(model, changed);
    this.write(model, changed);
  }

  private write(model: string, target: Target | null): void {
    if (this.store === undefined) return;
    const written =
      target === null
        ? this.store.removeTargetHealth(model)
        : this.store.setTargetHealth({
            model,
            provider: target.provider,
            state: target.state === 'trial' ? 'trial' : 'cooling',
            until: target.until,
            next_cooldown_ms: target.nextCooldownMs,
            updated_at: target.updatedAt,
          });
    written.then(
      () => {
        if (target !== null && this.targets.get(model) === target) target.stored = true;
      },
      (error: unknown) => this.logger?.warn({ err: error, model }, 'sharing a target cooldown failed'),
    );
  }

  /** Takes in what other processes or instances wrote, when the store says something changed. */
  private readShared(): void {
    if (this.store === undefined) return;
    const version = this.store.changeVersion();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    const rows = new Map(this.store.listTargetHealth().map((row) => [row.model, row]));
    for (const [model, target] of this.targets) {
      // Healthy again elsewhere (a trial answered): a state of ours the store already had is over.
      if (target.state !== 'healthy' && target.stored && !rows.has(model)) this.targets.delete(model);
    }
    for (const row of rows.values()) {
      const target = this.targets.get(row.model);
      if (target !== undefined && target.state !== 'healthy' && target.updatedAt >= row.updated_at) continue;
      this.targets.set(row.model, targetOf(row));
    }
  }
}

function targetOf(row: TargetHealthRow): Target {
  return {
    provider: row.provider,
    state: row.state,
    failures: [],
    until: row.until,
    nextCooldownMs: row.next_cooldown_ms,
    updatedAt: row.updated_at,
    stored: true,
  };
}

/** Each provider with its targets that are not healthy (`targets`), as lists show them. */
export function withTargetHealth(
  providers: readonly ProviderInfo[],
  states: readonly TargetStateInfo[],
): ProviderInfo[] {
  return providers.map((provider) => ({
    ...provider,
    targets: states
      .filter((state) => state.provider === provider.id && state.state !== 'healthy')
      .map((state): TargetHealthInfo => ({
        model: state.model,
        provider: state.provider,
        state: state.state,
        until: state.until === null ? null : new Date(state.until).toISOString(),
      })),
  }));
}

function infoOf(model: string, target: Target, now: number): TargetStateInfo {
  // A cooldown that has run out waits for its trial: that is what the next request will be.
  if (target.state === 'cooling' && now >= target.until) {
    return { model, provider: target.provider, state: 'trial', until: null };
  }
  return {
    model,
    provider: target.provider,
    state: target.state,
    until: target.state === 'cooling' ? target.until : null,
  };
}
