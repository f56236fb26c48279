// The tables of the screens, headed the same way: header cells that say they head a column, figures aligned right,
// and a column of row buttons whose title only screen readers get.

import type { ReactNode } from 'react';

interface TableHeadProps {
  columns: readonly string[];
  /** Those of `columns` that hold figures. */
  numbers?: readonly string[];
  /** The title of a last column of row buttons, read out but not shown. */
  actions?: string;
}

export function TableHead({ columns, numbers = [], actions }: TableHeadProps) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className={numbers.includes(column) ? 'number' : undefined}>
            {column}
          </th>
        ))}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">{actions}</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

interface TableProps extends TableHeadProps {
  /** The table's accessible name. */
  label: string;
  /** Extra classes of the scrolling frame. */
  className?: string;
  /** The rows. */
  children: ReactNode;
}

/** A table that scrolls sideways on its own when it is wider than the screen. */
export function Table({ label, className, children, ...head }: TableProps) {
  return (
    <div className={className ? `table-wrap ${className}` : 'table-wrap'}>
      <table aria-label={label}>
        <TableHead {...head} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
