import { describe, expect, it } from 'vitest';
import { newGenerationId } from './generation.js';

describe('newGenerationId', () => {
  it('gives distinct ids of 16 random base64url characters, also across refills of its random pool', () => {
    const ids = Array.from({ length: 2_000 }, () => newGenerationId());
    for (const id of ids) expect(id).toMatch(/^gen-\d{10}-[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(-16, -12))).size).toBeGreaterThan(1_000);
  });
});
