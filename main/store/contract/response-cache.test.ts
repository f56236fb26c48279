import { describe, expect, it } from 'vitest';
import { entriesToEvict, EvictionSchedule } from './response-cache.js';

describe('the response cache’s eviction', () => {
  const limits = { maxEntries: 6_400, maxBytes: 64_000_000 };

  it('frees what is beyond a limit and a sixty-fourth more, so that the next writes find room', () => {
    expect(entriesToEvict({ entries: 6_400, bytes: 1_000 }, limits)).toBe(0);
    expect(entriesToEvict({ entries: 6_401, bytes: 1_000 }, limits)).toBe(101);
    // Bytes: entries of the average size, enough for the excess and the margin.
    expect(entriesToEvict({ entries: 1_000, bytes: 64_000_000 + 10_000 }, limits)).toBe(Math.ceil(1_010_000 / 64_010));
    // Small limits are kept exactly.
    expect(entriesToEvict({ entries: 3, bytes: 30 }, { maxEntries: 2, maxBytes: 1_000 })).toBe(1);
    expect(entriesToEvict({ entries: 0, bytes: 0 }, { maxEntries: 0, maxBytes: 0 })).toBe(0);
  });

  it('counts the cache on the first write, when this process may have filled the room, and every 256 writes', () => {
    const schedule = new EvictionSchedule();
    expect(schedule.due(10)).toBe(true);
    schedule.counted({ entries: 6_397, bytes: 100 }, limits);
    expect([schedule.due(10), schedule.due(10), schedule.due(10)]).toEqual([false, false, false]);
    expect(schedule.due(10)).toBe(true); // a fourth entry would not fit
    schedule.counted({ entries: 0, bytes: 0 }, limits);
    expect(schedule.due(64_000_001)).toBe(true); // nor would this many bytes
    schedule.counted({ entries: 0, bytes: 0 }, limits);
    const dues = Array.from({ length: 256 }, () => schedule.due(1));
    expect(dues.indexOf(true)).toBe(255);
  });
});
