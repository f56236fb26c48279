// Loaded: what a screen shows of something it loads, before, after and instead of the answer.

import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Loaded } from './parts.js';

afterEach(cleanup);

const list = (data: string[] | undefined, loading: boolean) => (
  <Loaded loaded={{ data, loading }} what="keys" empty={<p>No keys yet</p>}>
    {(keys) => <p>{keys.join(', ')}</p>}
  </Loaded>
);

it('says it is loading until the first answer, then shows what came', () => {
  const { rerender, container } = render(list(undefined, true));
  expect(screen.getByRole('status').textContent).toBe('Loading keys…');
  rerender(list(['ci', 'laptop'], false));
  expect(container.textContent).toBe('ci, laptop');
  // A reload keeps what is shown.
  rerender(list(['ci', 'laptop'], true));
  expect(container.textContent).toBe('ci, laptop');
});

it('shows the empty state for an empty list, and nothing when the first load failed', () => {
  const { rerender, container } = render(list([], false));
  expect(container.textContent).toBe('No keys yet');
  rerender(list(undefined, false));
  expect(container.textContent).toBe('');
});

it('gives an empty list to children when there is no empty state', () => {
  const { container } = render(
    <Loaded loaded={{ data: [] as string[], loading: false }} what="keys">
      {(keys) => <p>{keys.length} keys</p>}
    </Loaded>,
  );
  expect(container.textContent).toBe('0 keys');
});
