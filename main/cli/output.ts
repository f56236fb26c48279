// Small helpers for what the CLI prints: aligned tables for people, JSON for scripts.

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: Output = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export interface ListFormat<Item> {
  headers: string[];
  row(item: Item): string[];
  /** Printed instead of a table with no rows. */
  empty?: string;
  /** A line for people after the table, on standard error. */
  note?: string;
}

/** What a list command prints: JSON for scripts (--json), else a table, or `empty` when there is nothing. */
export function printList<Item>(
  output: Output,
  items: readonly Item[],
  json: boolean | undefined,
  format: ListFormat<Item>,
): void {
  if (json) return output.out(formatJson(items));
  if (items.length === 0 && format.empty !== undefined) return output.out(format.empty);
  const rows = items.map((item) => format.row(item));
  output.out(formatTable(format.headers, rows));
  if (format.note) output.err(format.note);
}
