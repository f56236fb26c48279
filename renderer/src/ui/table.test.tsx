// The screens' tables: named, headed by column headers, figures marked for right alignment, the buttons' column
// titled for screen readers only.

import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Table } from './table.js';

afterEach(cleanup);

it('heads each column, marks the figures and hides only the title of the buttons’ column', () => {
  const { container } = render(
    <Table label="API keys" className="extra" columns={['Name', 'Spent']} numbers={['Spent']} actions="Actions">
      <tr>
        <td>ci</td>
        <td>$1</td>
        <td>
          <button type="button">Edit</button>
        </td>
      </tr>
    </Table>,
  );
  const table = screen.getByRole('table', { name: 'API keys' });
  expect(table.parentElement?.className).toBe('table-wrap extra');
  const headers = within(table).getAllByRole('columnheader');
  expect(headers.map((header) => header.textContent)).toEqual(['Name', 'Spent', 'Actions']);
  expect(headers.map((header) => header.getAttribute('scope'))).toEqual(['col', 'col', 'col']);
  expect(headers.map((header) => header.className)).toEqual(['', 'number', '']);
  expect(within(headers[2]!).getByText('Actions').className).toBe('visually-hidden');
  expect(within(table).getByRole('row', { name: /ci/ })).toBeTruthy();
  expect(container.querySelectorAll('tbody tr')).toHaveLength(1);
});

it('has no buttons’ column without an actions title, and a bare frame without extra classes', () => {
  render(
    <Table label="Prices" columns={['Model']}>
      {null}
    </Table>,
  );
  const table = screen.getByRole('table', { name: 'Prices' });
  expect(table.parentElement?.className).toBe('table-wrap');
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent),
  ).toEqual(['Model']);
});
