import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { timestamp } from '../timeseries.schemas.ts';
import { isLocalDateTime } from './local-times.ts';
import { CsvLines, createLineParser, MissingOffsetError, parseHeader } from './readings-csv.ts';

/** Reads a line as the import does: from the bytes of the file. */
function parseLine(parser: ReturnType<typeof createLineParser>, into: CsvLines, line: number, text: string) {
  const bytes = Buffer.from(`header\n${text}\n`);
  parser.parseBytes(into, line, bytes, 7, bytes.length - 1);
}

const threeColumns = createLineParser(parseHeader('meter_sn,ts,import_kwh'));
function importKwh(text: string): number {
  const lines = new CsvLines();
  parseLine(threeColumns, lines, 2, `M-1,2026-01-01T00:00:00Z,${text}`);
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
      parseLine(parse, lines, 2, text);
      return [lines.serials[0], lines.ts[0], lines.importKwh[0], lines.exportKwh[0], lines.kvarh[0]];
    };
    const plain = read('M-1,2026-01-01T00:00:00Z,1.5,,0.25');
    expect(plain).toEqual(['M-1', Date.UTC(2026, 0, 1), 1.5, Number.NaN, 0.25]);
    expect(read('"M-1", 2026-01-01T00:00:00Z ,"1.5",  ,0.25 ')).toEqual(plain);
  });
});

describe('splitting off the last meter of a batch', () => {
  function batchOf(serials: string[]): CsvLines {
    const lines = new CsvLines();
    serials.forEach((serial, i) => {
      parseLine(threeColumns, lines, i + 2, `${serial},${new Date(Date.UTC(2026, 0, 1, i)).toISOString()},${i}`);
    });
    return lines;
  }
  const content = (lines: CsvLines) => ({
    lines: [...lines.lines.subarray(0, lines.length)],
    serials: lines.serials,
    importKwh: [...lines.importKwh.subarray(0, lines.length)],
  });

  it('moves the lines of the last meter, in order, when enough lines stay', () => {
    const batch = batchOf(['A', 'A', 'B', 'B', 'C', 'C', 'C']);
    const rest = batch.splitOffLastMeter(4);
    expect(content(batch)).toEqual({ lines: [2, 3, 4, 5], serials: ['A', 'A', 'B', 'B'], importKwh: [0, 1, 2, 3] });
    expect(content(rest)).toEqual({ lines: [6, 7, 8], serials: ['C', 'C', 'C'], importKwh: [4, 5, 6] });
    const columns = [rest.ts, rest.exportKwh, rest.kvarh, rest.powerKw, rest.kva].map((c) => [...c.subarray(0, 3)]);
    expect(columns).toEqual([[4, 5, 6].map((hour) => Date.UTC(2026, 0, 1, hour)), ...Array(4).fill([NaN, NaN, NaN])]);
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

describe('a line read from bytes', () => {
  const header = parseHeader('meter_sn,ts,import_kwh,export_kwh,kvarh');
  /** What reading a line gives: its columns, or the error. */
  function outcome(read: (into: CsvLines) => void) {
    // Room for the one line read: comparing two outcomes compares what was read, not 1,024 empty slots.
    const into = new CsvLines(1);
    try {
      read(into);
    } catch (error) {
      return (error as Error).message;
    }
    return into;
  }
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const timestampText = fc
    .record({
      year: fc.integer({ min: 1890, max: 9999 }),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      hour: fc.integer({ min: 0, max: 24 }),
      minute: fc.integer({ min: 0, max: 60 }),
      second: fc.integer({ min: 0, max: 60 }),
      fraction: fc.constantFrom('', '.5', '.25', '.125', '.1234', '.'),
      zone: fc.constantFrom('Z', '+02:00', '-05:30', '+23:59', '+24:00', '-00:00', 'z', '', '+0200'),
    })
    .map(
      (t) =>
        `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${t.fraction}${t.zone}`,
    );
  const numberText = fc.oneof(
    fc.double({ min: 0, max: 2_000_000, noNaN: true }).map(String),
    fc.integer({ min: 0, max: 999_999 }).map((n) => `${n}.${n % 1000}`),
    fc.constantFrom('', '-1', '1e3', '.5', '5.', '0x10', ' 1.5', '"2"', '1.2.3', '1000000', '1000000.001'),
  );
  const serialText = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9-]{1,70}$/),
    fc.constantFrom('', 'M 1', '"M-1"', ' M-1', 'mètre', 'M\u0000'),
  );
  const line = fc
    .tuple(serialText, timestampText, numberText, numberText, numberText, fc.constantFrom('', ',', ',0'))
    .map(([serial, ts, a, b, c, extra]) => `${serial},${ts},${a},${b},${c}${extra}`);

  it('reads as the same line read as text: the same values or the same error', () => {
    fc.assert(
      fc.property(line, (text) => {
        const fromBytes = outcome((into) => parseLine(createLineParser(header), into, 7, text));
        const fromText = outcome((into) => createLineParser(header).parseText(into, 7, text));
        expect(fromBytes).toEqual(fromText);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads the usual lines in place, and only the others as text', () => {
    const decoded = vi.spyOn(Buffer.prototype, 'toString');
    const parser = createLineParser(header);
    const decodes = (text: string) => {
      decoded.mockClear();
      parseLine(parser, new CsvLines(), 2, text);
      return decoded.mock.calls.filter(([encoding]) => encoding === 'utf8').length;
    };
    try {
      for (const plain of [
        'M-1,2026-01-01T00:30:00Z,1.5,0.25,0',
        'M-1,2026-01-01T00:30:00.5+02:00,17889.291,,',
        'M-1,2026-01-01T00:30:00.125-05:30,1,2,3',
      ]) {
        expect(decodes(plain)).toBe(0);
      }
      for (const other of [
        '"M-1",2026-01-01T00:30:00Z,1.5,0.25,0',
        'M 1,2026-01-01T00:30:00Z,1.5,0.25,0',
        'mètre,2026-01-01T00:30:00Z,1.5,0.25,0',
        'M-1,2026-01-01T00:30:00.1234Z,1.5,0.25,0',
        'M-1,2026-01-01T00:30:00Z,1e3,0.25,0',
      ]) {
        expect(decodes(other)).toBe(1);
      }
    } finally {
      decoded.mockRestore();
    }
  });

  it('reads a timestamp as the timestamp schema does: the same time or its message (a local time: no offset)', () => {
    fc.assert(
      fc.property(timestampText, (text) => {
        const read = outcome((into) => createLineParser(header).parseText(into, 7, `M-1,${text},1,,`));
        const parsed = timestamp.safeParse(text);
        const refusal = isLocalDateTime(text)
          ? new MissingOffsetError(7, text).message
          : `line 7: ts: ${parsed.error?.issues[0]?.message}, found "${text}"`;
        expect(typeof read === 'string' ? read : read.ts[0]).toEqual(parsed.success ? parsed.data.getTime() : refusal);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads any valid timestamp at the same time as Date does', () => {
    const time = fc.integer({ min: Date.UTC(1900, 0, 2), max: Date.UTC(9998, 11, 30) });
    const offset = fc.integer({ min: -(15 * 60 + 59), max: 15 * 60 + 59 });
    fc.assert(
      fc.property(time, offset, fc.integer({ min: 0, max: 3 }), (ms, offsetMinutes, decimals) => {
        const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19 + (decimals && decimals + 1));
        const sign = offsetMinutes < 0 ? '-' : '+';
        const zone = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
        const text = `${local}${offsetMinutes === 0 ? 'Z' : zone}`;
        const into = new CsvLines();
        parseLine(createLineParser(header), into, 2, `M-1,${text},1,,`);
        expect([into.length, into.ts[0]]).toEqual([1, new Date(text).getTime()]);
      }),
      { numRuns: 5000 },
    );
  });
});
