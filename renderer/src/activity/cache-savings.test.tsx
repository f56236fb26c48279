// Activity's line on the response cache: the hits among the listed requests and what they saved.

import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { usageRecord } from '../../../test/support/usage-record.js';
import { CacheSavings } from './cache-savings.js';

afterEach(cleanup);

describe('CacheSavings', () => {
  it('counts the hits among the rows and sums what they saved', () => {
    render(
      <CacheSavings
        rows={[
          usageRecord({ id: 'a', key_id: 'k', cache: 'hit', cost: 0, saved_cost: 0.25 }),
          usageRecord({ id: 'b', key_id: 'k', cache: 'miss', cost: 0.25 }),
          usageRecord({ id: 'c', key_id: 'k', cache: 'hit', cost: 0, saved_cost: 0.5 }),
        ]}
      />,
    );
    expect(screen.getByText(/answered from the response cache/).textContent).toBe(
      '2 of these 3 requests were answered from the response cache, saving $0.75.',
    );
  });

  it('says nothing when no request was a hit', () => {
    const { container } = render(<CacheSavings rows={[usageRecord({ id: 'a', key_id: 'k', cache: 'miss' })]} />);
    expect(container.textContent).toBe('');
  });
});
