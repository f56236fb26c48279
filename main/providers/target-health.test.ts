import { describe, expect, it } from 'vitest';
import { UpstreamError } from './http/upstream-errors.js';
import { failureCounts, TargetHealth, type CooldownSettings } from './target-health.js';

const model = 'acme/m1';
const provider = 'acme';
const settings: CooldownSettings = { failuresToCool: 3, windowMs: 60_000, cooldownMs: 30_000, maxCooldownMs: 100_000 };

const upstream = (upstreamStatus: number, retryAfter?: string) =>
  new UpstreamError({
    status: 502,
    message: 'failed',
    provider,
    upstreamStatus,
    ...(retryAfter ? { retryAfter } : {}),
  });
const refused = () => new UpstreamError({ status: 502, message: 'Could not reach: ECONNREFUSED', provider });
const timedOut = () => new UpstreamError({ status: 504, message: 'did not answer', provider, retryable: false });
const malformed = () => new UpstreamError({ status: 502, message: 'malformed', provider, retryable: false });

function cooled(health: TargetHealth, at: number, error: unknown = upstream(500)): void {
  for (let i = 0; i < 3; i += 1) health.failed(model, provider, error, at);
}

describe('failureCounts', () => {
  it('counts 429, 408, 5xx, timeouts and refused connections; not 4xx, malformed answers or a caller leaving', () => {
    for (const status of [408, 429, 500, 502, 503, 529]) expect(failureCounts(upstream(status))).toBe(true);
    expect(failureCounts(refused())).toBe(true);
    expect(failureCounts(timedOut())).toBe(true);
    for (const status of [400, 401, 403, 404, 422]) expect(failureCounts(upstream(status))).toBe(false);
    expect(failureCounts(malformed())).toBe(false);
    expect(failureCounts(new DOMException('The caller left', 'AbortError'))).toBe(false);
  });
});

describe('TargetHealth', () => {
  it('cools a target after N failures within the window, and not for failures spread wider', () => {
    const health = new TargetHealth({ settingsFor: () => settings });
    health.failed(model, provider, upstream(500), 0);
    health.failed(model, provider, upstream(500), 30_000);
    health.failed(model, provider, upstream(500), 61_000); // the first has left the window
    expect(health.refusedUntil(model, 61_000)).toBeNull();
    expect(health.stateOf(model, 61_000)?.state).toBe('healthy');
    health.failed(model, provider, upstream(429), 62_000);
    expect(health.refusedUntil(model, 62_000)).toBe(92_000);
    expect(health.stateOf(model, 70_000)).toEqual({ model, provider, state: 'cooling', until: 92_000 });
    expect(health.refusedUntil('acme/other', 62_000)).toBeNull();
  });

  it('ignores failures that do not count', () => {
    const health = new TargetHealth({ settingsFor: () => settings });
    for (let i = 0; i < 5; i += 1) health.failed(model, provider, upstream(400), i);
    for (let i = 0; i < 5; i += 1) health.failed(model, provider, new Error('the caller left'), i);
    expect(health.refusedUntil(model, 10)).toBeNull();
    expect(health.states(10)).toEqual([]);
  });

  it('lets exactly one trial through after the cooldown; an answer makes the target healthy', () => {
    const health = new TargetHealth({ settingsFor: () => settings });
    cooled(health, 0);
    expect(health.refusedUntil(model, 29_999)).toBe(30_000);
    expect(health.refusedUntil(model, 30_000)).toBeNull(); // the trial, claimed
    expect(health.stateOf(model, 30_000)?.state).toBe('trial');
    expect(health.refusedUntil(model, 30_001)).not.toBeNull(); // nobody else while it runs
    expect(health.refusedUntil(model, 30_002)).not.toBeNull();
    health.answered(model);
    expect(health.refusedUntil(model, 30_003)).toBeNull();
    expect(health.states(30_003)).toEqual([]);
  });

  it('cools again for twice as long when the trial fails, up to the cap, and starts over after a success', () => {
    const health = new TargetHealth({ settingsFor: () => settings });
    cooled(health, 0);
    let now = 30_000;
    const cooldowns: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      expect(health.refusedUntil(model, now)).toBeNull();
      health.failed(model, provider, refused(), now);
      const until = health.refusedUntil(model, now)!;
      cooldowns.push(until - now);
      now = until;
    }
    expect(cooldowns).toEqual([60_000, 100_000, 100_000, 100_000]);
    expect(health.refusedUntil(model, now)).toBeNull();
    health.answered(model);
    cooled(health, now);
    expect(health.refusedUntil(model, now)).toBe(now + 30_000);
  });

  it("lets an upstream's Retry-After set the cooldown when it is longer", () => {
    const health = new TargetHealth({ settingsFor: () => settings });
    health.failed(model, provider, upstream(429, '120'), 0);
    health.failed(model, provider, upstream(429, '120'), 0);
    health.failed(model, provider, upstream(429, '120'), 0);
    expect(health.refusedUntil(model, 0)).toBe(120_000);
    const shorter = new TargetHealth({ settingsFor: () => settings });
    cooled(shorter, 0, upstream(429, '5'));
    expect(shorter.refusedUntil(model, 0)).toBe(30_000);
    // A late failure of an attempt that began before the cooldown moves the end only with a longer Retry-After.
    shorter.failed(model, provider, upstream(500), 1_000);
    expect(shorter.refusedUntil(model, 1_000)).toBe(30_000);
    shorter.failed(model, provider, upstream(503, '60'), 1_000);
    expect(shorter.refusedUntil(model, 1_000)).toBe(61_000);
  });

  it('frees a trial whose caller left, and takes an upstream 4xx during a trial as the target being up', () => {
    const health = new TargetHealth({ settingsFor: () => settings });
    cooled(health, 0);
    expect(health.refusedUntil(model, 30_000)).toBeNull();
    health.failed(model, provider, new Error('the caller left'), 30_500);
    expect(health.refusedUntil(model, 30_600)).toBeNull(); // a new trial
    health.failed(model, provider, upstream(400), 31_000);
    expect(health.states(31_000)).toEqual([]);
  });

  it('lets a lost trial lapse, so that a target is never refused for good', () => {
    const health = new TargetHealth({ settingsFor: () => settings });
    cooled(health, 0);
    expect(health.refusedUntil(model, 30_000)).toBeNull();
    expect(health.refusedUntil(model, 80_000)).not.toBeNull();
    expect(health.refusedUntil(model, 90_000)).toBeNull();
  });

  it('is off for a provider whose settings say so', () => {
    const health = new TargetHealth({ settingsFor: (id) => (id === provider ? null : settings) });
    cooled(health, 0);
    expect(health.refusedUntil(model, 0)).toBeNull();
    const zero = new TargetHealth({ settingsFor: () => ({ ...settings, failuresToCool: 0 }) });
    cooled(zero, 0);
    expect(zero.refusedUntil(model, 0)).toBeNull();
  });

  it('reports a cooldown that ran out as waiting for its trial, and follows requests through their watch', () => {
    let now = 0;
    const health = new TargetHealth({ settingsFor: () => settings, now: () => now });
    // One request retried three times is one failure; three requests are three.
    const retried = health.generationWatch();
    for (let i = 0; i < 3; i += 1) retried.attempt(model, provider).failed(upstream(502));
    expect(health.states()).toEqual([expect.objectContaining({ model, state: 'healthy' })]);
    expect(health.refusedUntil(model, now)).toBeNull();
    for (let i = 0; i < 2; i += 1) health.generationWatch().attempt(model, provider).failed(upstream(502));
    expect(health.states()).toEqual([{ model, provider, state: 'cooling', until: 30_000 }]);
    now = 40_000;
    expect(health.states()).toEqual([{ model, provider, state: 'trial', until: null }]);
    expect(health.refusedUntil(model, now)).toBeNull();
    health.generationWatch().attempt(model, provider).answered();
    expect(health.states()).toEqual([]);
  });
});
