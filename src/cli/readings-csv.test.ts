import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvLines, createLineParser, parseHeader } from './readings-csv.ts';

const parseLine = createLineParser(parseHeader('meter_sn,ts,import_kwh'));
function importKwh(text: string): number {
  const lines = new CsvLines();
  parseLine(lines, 2, `M-1,2026-01-01T00:00:00Z,${text}`);
  return lines.importKwh[0]!;
}

describe('numbers in a line', () => {
  it('are read exactly as Number() reads them, in every accepted notation', () => {
    for (const text of [
      '0',
      '5.',
      '.5',
      '0.1',
      '17889.291',
      '999999.999999999',
      '123456.789012345',
      '123456.7890123456',
      '0.0000000000000000000001',
      '0.00000000000000000000001',
      '1e3',
      '2.5E-9',
      '000001.5',
    ]) {
      expect(importKwh(text)).toBe(Number(text));
    }
  });

  it('are read exactly as Number() reads them, for random decimals', () => {
    const decimal = fc
      .tuple(fc.integer({ min: 0, max: 999_999 }), fc.stringMatching(/^[0-9]{0,16}$/))
      .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : String(whole)));
    fc.assert(
      fc.property(decimal, (text) => importKwh(text) === Number(text)),
      { numRuns: 5000 },
    );
  });

  it('reject what is not a number from 0 to 1,000,000', () => {
    for (const text of ['-1', '0x10', 'Infinity', '1.2.3', '.', '1000000.5', '1e7']) {
      expect(() => importKwh(text)).toThrow(`line 2: import_kwh: must be a number from 0 to 1000000, found "${text}"`);
    }
  });
});

describe('a line with quoted or padded fields', () => {
  it('reads as the same line without them', () => {
    const parse = createLineParser(parseHeader('meter_sn,ts,import_kwh,export_kwh,kvarh'));
    const read = (text: string) => {
      const lines = new CsvLines();
      parse(lines, 2, text);
      return [lines.serials[0], lines.ts[0], lines.importKwh[0], lines.exportKwh[0], lines.kvarh[0]];
    };
    const plain = read('M-1,2026-01-01T00:00:00Z,1.5,,0.25');
    expect(plain).toEqual(['M-1', Date.UTC(2026, 0, 1), 1.5, Number.NaN, 0.25]);
    expect(read('"M-1", 2026-01-01T00:00:00Z ,"1.5",  ,0.25 ')).toEqual(plain);
  });
});

describe('splitting off the last meter of a batch', () => {
  const parse = createLineParser(parseHeader('meter_sn,ts,import_kwh'));
  function batchOf(serials: string[]): CsvLines {
    const lines = new CsvLines();
    serials.forEach((serial, i) => {
      parse(lines, i + 2, `${serial},${new Date(Date.UTC(2026, 0, 1, i)).toISOString()},${i}`);
    });
    return lines;
  }
  const content = (lines: CsvLines) => ({ lines: lines.lines, serials: lines.serials, importKwh: lines.importKwh });

  it('moves the lines of the last meter, in order, when enough lines stay', () => {
    const batch = batchOf(['A', 'A', 'B', 'B', 'C', 'C', 'C']);
    const rest = batch.splitOffLastMeter(4);
    expect(content(batch)).toEqual({ lines: [2, 3, 4, 5], serials: ['A', 'A', 'B', 'B'], importKwh: [0, 1, 2, 3] });
    expect(content(rest)).toEqual({ lines: [6, 7, 8], serials: ['C', 'C', 'C'], importKwh: [4, 5, 6] });
    expect(rest.ts).toEqual([4, 5, 6].map((hour) => Date.UTC(2026, 0, 1, hour)));
    expect([rest.exportKwh, rest.kvarh, rest.powerKw, rest.kva]).toEqual(Array(4).fill([NaN, NaN, NaN]));
  });

  it('moves nothing when fewer lines would stay, or when the meter has earlier lines in the batch', () => {
    for (const [serials, minimumKept] of [
      [['A', 'B', 'B', 'B'], 2],
      [['C', 'C', 'C'], 1],
      [['A', 'B', 'A', 'B', 'B'], 1],
    ] as const) {
      const batch = batchOf([...serials]);
      expect(batch.splitOffLastMeter(minimumKept).length).toBe(0);
      expect(batch.serials).toEqual(serials);
    }
  });
});
