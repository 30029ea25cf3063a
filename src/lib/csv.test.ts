import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv.ts';

describe('the CSV writer', () => {
  it('leaves plain fields as they are', () => {
    expect(csvField('Grid import')).toBe('Grid import');
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(true)).toBe('true');
  });

  it('quotes a field with a comma, a quote or a line end, doubling the quotes', () => {
    expect(csvField('Energy, peak')).toBe('"Energy, peak"');
    expect(csvField('The "Megaflex" tariff')).toBe('"The ""Megaflex"" tariff"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('carriage\rreturn')).toBe('"carriage\rreturn"');
  });

  it('quotes a field with leading or trailing space so that a reader keeps it', () => {
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField('padded ')).toBe('"padded "');
  });

  it('writes null, undefined and non-finite numbers as empty fields, and negative zero as 0', () => {
    expect([null, undefined, Number.NaN, Number.POSITIVE_INFINITY, -0].map(csvField)).toEqual(['', '', '', '', '0']);
  });

  it('writes numbers with a dot and no grouping, whatever the reader’s language', () => {
    expect(csvField(1234567.891)).toBe('1234567.891');
    expect(csvField(-0.5)).toBe('-0.5');
  });

  it('defuses text a spreadsheet would run as a formula, and leaves numbers as numbers', () => {
    expect(['=HYPERLINK("http://x","y")', '+27 11', '-tenant', '@SUM(A1)', 'a=b'].map(csvField)).toEqual([
      '"\'=HYPERLINK(""http://x"",""y"")"',
      "'+27 11",
      "'-tenant",
      "'@SUM(A1)",
      'a=b',
    ]);
    expect(csvField(-548.76)).toBe('-548.76');
  });

  it('ends every line, the header’s too, with CRLF', () => {
    expect(
      toCsv(
        ['month', 'charge', 'amount'],
        [
          ['2026-10', 'Energy, peak', 9435.75],
          ['2026-10', null, -548.76],
        ],
      ),
    ).toBe('month,charge,amount\r\n2026-10,"Energy, peak",9435.75\r\n2026-10,,-548.76\r\n');
  });
});
