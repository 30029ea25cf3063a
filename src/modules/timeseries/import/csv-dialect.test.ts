import { describe, expect, it } from 'vitest';
import { dateReader, detectDelimiter, parseColumnMap, proposeColumns } from './csv-dialect.ts';

describe('a spreadsheet’s readings file', () => {
  it('proposes the column map from common names, in any case', () => {
    expect(proposeColumns(['Meter', 'DATE', 'time', ' kWh ', 'kVArh', 'Site'])).toEqual({
      meter_sn: 'Meter',
      ts: 'DATE',
      time: 'time',
      import_kwh: 'kWh',
      kvarh: 'kVArh',
    });
    expect(proposeColumns(['Serial', 'Timestamp', 'Reading'])).toEqual({
      meter_sn: 'Serial',
      ts: 'Timestamp',
      import_kwh: 'Reading',
    });
  });

  it('finds the delimiter from the header line', () => {
    expect(detectDelimiter('Meter;Date;Time;kWh')).toBe(';');
    expect(detectDelimiter('Meter\tDate\tkWh')).toBe('\t');
    expect(detectDelimiter('meter_sn,ts,import_kwh')).toBe(',');
    expect(detectDelimiter('one column')).toBe(',');
  });

  it('reads each date format as a local ISO time, and refuses a date in another', () => {
    expect(dateReader('YYYY/MM/DD')('2026/11/1', '0:30')).toBe('2026-11-01T00:30:00');
    expect(dateReader('DD/MM/YYYY HH:mm')('01/11/2026 13:05', undefined)).toBe('2026-11-01T13:05:00');
    expect(dateReader('MM/DD/YYYY HH:mm:ss')('11/01/2026 13:05:09', undefined)).toBe('2026-11-01T13:05:09');
    expect(dateReader('ISO')('2026-11-01', '00:30')).toBe('2026-11-01 00:30');
    expect(dateReader('DD/MM/YYYY')('2026-11-01', '00:30')).toBeNull();
  });

  it('reads a column map written as JSON, and nothing else', () => {
    expect(parseColumnMap('{"ts":"Date","import_kwh":"kWh"}')).toEqual({ ts: 'Date', import_kwh: 'kWh' });
    expect(['{"watts":"W"}', '["ts"]', '{"ts":""}', '{"ts":1}', 'not json'].map(parseColumnMap)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
