// CSV for usage exports (RFC 4180 quoting). Text cells that a spreadsheet would run as a formula (=, +, -, @ …) get a
// leading apostrophe: X-Title and HTTP-Referer come from whoever calls the gateway.

export type CsvValue = string | number | boolean | null | undefined;

const plainNumber = /^-?\d+(\.\d+)?$/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !plainNumber.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header row and the data rows, each line ending in \n. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\n`).join('');
}
