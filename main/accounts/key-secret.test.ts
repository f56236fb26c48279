// A key's label: the secret's real beginning and its last four characters, never more of the random part than
// before; older labels, whose three characters after the prefix were not the secret's next ones, read the same way.

import { describe, expect, it } from 'vitest';
import { generateKeySecret, shownKeyLabel } from './key-secret.js';

describe('a key label', () => {
  it('starts as the secret starts and ends as it ends', () => {
    for (let round = 0; round < 20; round += 1) {
      const { secret, label } = generateKeySecret();
      const [head, tail] = label.split('…');
      expect(head).toBe('sk-sy-v1-');
      expect(secret.startsWith(head!)).toBe(true);
      expect(tail).toHaveLength(4);
      expect(secret.endsWith(tail!)).toBe(true);
    }
  });

  it('shows an older label without its three characters that are not the secret’s beginning', () => {
    expect(shownKeyLabel('sk-sy-v1-3f2…9ab')).toBe('sk-sy-v1-…9ab');
    expect(shownKeyLabel('sk-sy-v1-…x7Qa')).toBe('sk-sy-v1-…x7Qa');
  });
});
