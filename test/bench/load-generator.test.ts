// The benchmark's load generator: how a latency measurement's connections open.

import { describe, expect, it } from 'vitest';
import { connectionOpenDelays } from '../../bench/load-generator.js';

describe('connectionOpenDelays', () => {
  it('opens every connection at once without a spread', () => {
    expect(connectionOpenDelays({ connections: 3, durationMs: 4_000 })).toEqual([0, 0, 0]);
  });

  it('opens the connections evenly over the spread', () => {
    expect(connectionOpenDelays({ connections: 4, durationMs: 4_000, startSpreadMs: 200 })).toEqual([0, 50, 100, 150]);
  });

  it('keeps the spread within the first half of the run', () => {
    expect(connectionOpenDelays({ connections: 2, durationMs: 100, startSpreadMs: 1_000 })).toEqual([0, 25]);
  });
});
