import { describe, expect, it } from 'vitest';
import { formatUsage } from './format.js';

const usage = { prompt_tokens: 1200, completion_tokens: 30, total_tokens: 1230 };

describe('formatUsage', () => {
  it('shows what a priced reply cost, and "unpriced" for a model without a price', () => {
    expect(formatUsage(usage, 0.0123)).toBe('1,200 in · 30 out · $0.01');
    expect(formatUsage(usage, 0)).toBe('1,200 in · 30 out · $0.00');
    expect(formatUsage(usage, null)).toBe('1,200 in · 30 out · unpriced');
  });

  it('shows nothing for a reply without usage', () => {
    expect(formatUsage(null, null)).toBe('');
  });
});
