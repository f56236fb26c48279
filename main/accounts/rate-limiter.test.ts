import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

function limiter() {
  const clock = { now: 1_000_000 };
  return { clock, limiter: new RateLimiter(() => clock.now) };
}

describe('RateLimiter', () => {
  it('allows N requests in any 60 s, then says how long until the oldest leaves the window', () => {
    const { clock, limiter: rate } = limiter();
    for (let index = 0; index < 3; index++) {
      expect(rate.requestWait('k', 3)).toBe(0);
      rate.noteRequest('k');
      clock.now += 10_000;
    }
    // Requests at 0 s, 10 s, 20 s; now 30 s: the first leaves at 60 s.
    expect(rate.requestWait('k', 3)).toBe(30_000);
    expect(rate.requestWait('other', 3)).toBe(0);
    clock.now += 30_000;
    expect(rate.requestWait('k', 3)).toBe(0);
    rate.noteRequest('k');
    // Now at 60 s: 10 s, 20 s, 60 s in the window; the one at 10 s leaves at 70 s.
    expect(rate.requestWait('k', 3)).toBe(10_000);
    // A lower limit waits for more requests to leave.
    expect(rate.requestWait('k', 1)).toBe(60_000);
  });

  it('refuses once the last minute’s tokens reached the limit, until enough of them leave', () => {
    const { clock, limiter: rate } = limiter();
    rate.noteTokens('k', 14);
    expect(rate.tokenWait('k', 20)).toBe(0);
    clock.now += 5_000;
    rate.noteTokens('k', 14);
    // 28 ≥ 20; after the first entry (at 0 s) leaves, 14 < 20: at 60 s, 55 s from now.
    expect(rate.tokenWait('k', 20)).toBe(55_000);
    // With a limit of 10, both must leave: the second at 65 s.
    expect(rate.tokenWait('k', 10)).toBe(60_000);
    clock.now += 60_000;
    expect(rate.tokenWait('k', 20)).toBe(0);
    rate.noteTokens('k', 0);
    expect(rate.tokenWait('k', 1)).toBe(0);
  });
});
