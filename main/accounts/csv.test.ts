import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.js';

describe('csv', () => {
  it('writes a header and rows, quoting only what needs it', () => {
    expect(
      toCsv(
        ['model', 'app', 'requests', 'cost_usd', 'streamed', 'ttft_ms'],
        [
          ['up/echo-1', 'My App', 3, '0.000057500', true, null],
          ['x/y', 'He said "hi", twice\nthen left', 0, '0.00', false, 12],
        ],
      ),
    ).toBe(
      'model,app,requests,cost_usd,streamed,ttft_ms\n' +
        'up/echo-1,My App,3,0.000057500,true,\n' +
        'x/y,"He said ""hi"", twice\nthen left",0,0.00,false,12\n',
    );
  });

  it('defuses spreadsheet formulas in text but leaves numbers alone', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-0.5')).toBe('-0.5');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell(undefined)).toBe('');
  });
});
