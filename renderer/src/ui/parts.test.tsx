// The small pieces every screen uses: what a screen shows of something it loads (before, after and instead of
// the answer), and the fields for a choice and for an amount in USD.

import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { ChoiceField, Loaded, UsdField } from './parts.js';

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

it('shows the error of the last load above what loaded before it', () => {
  const { container } = render(
    <Loaded loaded={{ data: ['ci'], loading: false, error: 'The server is gone.' }} what="keys">
      {(keys) => <p>{keys.join(', ')}</p>}
    </Loaded>,
  );
  expect(screen.getByRole('alert').textContent).toBe('The server is gone.');
  expect(container.textContent).toBe('The server is gone.ci');
});

it('gives an empty list to children when there is no empty state', () => {
  const { container } = render(
    <Loaded loaded={{ data: [] as string[], loading: false }} what="keys">
      {(keys) => <p>{keys.length} keys</p>}
    </Loaded>,
  );
  expect(container.textContent).toBe('0 keys');
});

it('offers each option by its label, in order, and hands back the option chosen', () => {
  const onChange = vi.fn();
  render(
    <ChoiceField
      label="Limit resets"
      options={['never', 'daily'] as const}
      labels={{ never: 'Never', daily: 'Daily (00:00 UTC)' }}
      value="never"
      onChange={onChange}
    />,
  );
  const select = screen.getByLabelText<HTMLSelectElement>('Limit resets');
  expect([...select.options].map((option) => [option.value, option.textContent])).toEqual([
    ['never', 'Never'],
    ['daily', 'Daily (00:00 UTC)'],
  ]);
  expect(select.value).toBe('never');
  fireEvent.change(select, { target: { value: 'daily' } });
  expect(onChange).toHaveBeenCalledWith('daily');
});

it('takes an amount in USD from 0 with any decimals, as the text typed', () => {
  const onChange = vi.fn();
  render(<UsdField label="Input" hint="Per million tokens." value="1.5" onChange={onChange} required />);
  const input = screen.getByLabelText<HTMLInputElement>('Input');
  expect([input.type, input.min, input.step, input.inputMode, input.required]).toEqual([
    'number',
    '0',
    'any',
    'decimal',
    true,
  ]);
  expect(input.value).toBe('1.5');
  expect(screen.getByText('Per million tokens.').id).toBe(input.getAttribute('aria-describedby'));
  fireEvent.change(input, { target: { value: '2.25' } });
  expect(onChange).toHaveBeenCalledWith('2.25');
});
