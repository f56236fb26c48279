import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle.js';

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first call at once and folds the rest of the interval into one call at its end', () => {
    const run = vi.fn();
    const throttled = throttle(run, 1_000);
    throttled.call();
    expect(run).toHaveBeenCalledTimes(1);
    for (let index = 0; index < 50; index++) throttled.call();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    // Nothing more was asked for: nothing more runs.
    vi.advanceTimersByTime(5_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('drops a pending call when disposed', () => {
    const run = vi.fn();
    const throttled = throttle(run, 1_000);
    throttled.call();
    throttled.call();
    throttled.dispose();
    vi.advanceTimersByTime(2_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
