// useChanged: true on the render that sees a new value, false otherwise (the first render included).

import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { useChanged } from './use-changed.js';

afterEach(cleanup);

it('tells once when any of the values changes', () => {
  const seen: boolean[] = [];
  const { rerender } = renderHook(({ id, title }) => seen.push(useChanged(id, title)), {
    initialProps: { id: 'a', title: 'First' },
  });
  rerender({ id: 'a', title: 'First' });
  rerender({ id: 'a', title: 'Renamed' });
  rerender({ id: 'a', title: 'Renamed' });
  rerender({ id: 'b', title: 'Renamed' });
  // A change renders twice: once that sees it (and sets state), once more with the state set.
  expect(seen).toEqual([false, false, true, false, false, true, false]);
});
