import type { Executor } from '../../src/db/types.ts';
import { type FullReading, type NaiveTotals, naiveTotals } from './timeseries-factories.ts';

/** How PostgreSQL's to_char names each calendar unit of a local time. */
const LABEL_FORMATS = {
  hour: 'YYYY-MM-DD"T"HH24',
  day: 'YYYY-MM-DD',
  week: 'IYYY-"W"IW',
  month: 'YYYY-MM',
} as const;

export type CalendarUnit = keyof typeof LABEL_FORMATS;

/**
 * A meter's stored readings in [start, end), oldest first, each with the local name of its
 * calendar unit in tz as PostgreSQL gives it (its own time zone data and to_char of the local
 * time): worked out independently of the service's calendar.
 */
export async function localLabels(
  db: Executor,
  meterId: number,
  unit: CalendarUnit,
  tz: string,
  start: string,
  end: string,
): Promise<(FullReading & { label: string })[]> {
  const rows = await db.query<Omit<FullReading, 'ts'> & { ts: Date; label: string }>(
    `SELECT ts, to_char(ts AT TIME ZONE $2, $3) AS label, import_kwh, export_kwh, kvarh, power_kw, kva
     FROM readings WHERE meter_id = $1 AND ts >= $4::timestamptz AND ts < $5::timestamptz ORDER BY ts`,
    [meterId, tz, LABEL_FORMATS[unit], start, end],
  );
  return rows.map((row) => ({ ...row, ts: row.ts.toISOString() }));
}

/** Readings of localLabels grouped by label, with the contract's totals; labels in the readings' order. */
export function totalsByLabel(readings: readonly (FullReading & { label: string })[]) {
  const groups = new Map<string, FullReading[]>();
  for (const { label, ...reading } of readings) groups.set(label, [...(groups.get(label) ?? []), reading]);
  return new Map([...groups].map(([label, rows]): [string, Omit<NaiveTotals, 'ts'>] => [label, naiveTotals(rows)]));
}
