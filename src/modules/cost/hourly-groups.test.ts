import { describe, expect, it } from 'vitest';
import { eskomCalendar, HOUR_MS, item, sast, tariff } from '../../../test/helpers/pricing-fixtures.ts';
import { planHourlyPricing } from './engine/index.ts';
import { groupHourlyRows, HourColumns, NO_HOURS } from './hourly-groups.ts';

// The property test (hourly-pricing.property.test.ts) compares these groups with the database's
// sums for ordinary meters; here, sums no double holds exactly.

const start = sast('2025-06-02T10:00');
const plan = planHourlyPricing({
  tariff: tariff([item('IMPORT_ENERGY', '2.1611')]),
  calendar: eskomCalendar(),
  start,
  end: new Date(start.getTime() + 3 * HOUR_MS),
  intervalMinutes: 60,
  notifiedMaxDemandKva: null,
})!;

/** One hourly rollup of a meter, as stored: sums in micro-units (µWh, µvarh). */
interface HourlyRow {
  hour: number;
  import_uwh: number;
  export_uwh: number;
  uvarh: number;
  readings: number;
  max_kva: number;
}

/** Rows in columns, as the repository reads them. */
const columnsOf = (rows: HourlyRow[]) =>
  new HourColumns(
    Int32Array.from(rows, (r) => r.hour),
    Float64Array.from(rows, (r) => r.import_uwh),
    Float64Array.from(rows, (r) => r.export_uwh),
    Float64Array.from(rows, (r) => r.uvarh),
    Int32Array.from(rows, (r) => r.readings),
    Float64Array.from(rows, (r) => r.max_kva),
  );

const row = (hour: number, importUwh: number): HourlyRow => ({
  hour,
  import_uwh: importUwh,
  export_uwh: 1,
  uvarh: -3,
  readings: 1,
  max_kva: hour,
});

describe('groupHourlyRows', () => {
  it('adds up sums past 2^53 exactly, as the database does', () => {
    const first = plan.firstHour;
    // 4e15 µWh an hour (4 GWh): three of them exceed 2^53, where doubles step by 2.
    const rows = [row(first, 4e15 + 1), row(first + 1, 4e15 + 3), row(first + 2, 4e15 + 5)];
    const groups = groupHourlyRows(plan, [columnsOf(rows.slice(0, 1)), columnsOf(rows.slice(1))]);
    expect(groups).toEqual([
      {
        key: plan.hourKeys[0],
        in_period: true,
        // 12,000,000,000,000.009 kWh-millionths: numeric `sum / 1000` as the repository reads it.
        import_micro: Number('12000000000000.009'),
        export_micro: 0.003,
        kvarh_micro: -0.009,
        readings: 3,
        max_kva: first + 2,
      },
    ]);
    expect(plan.hourKeys.slice(0, 3)).toEqual([plan.hourKeys[0], plan.hourKeys[0], plan.hourKeys[0]]);
  });

  it('leaves out the hours outside the plan and counts at most its intervals of an hour', () => {
    const first = plan.firstHour;
    const rows = [row(first - 1, 7), { ...row(first, 5), readings: 4 }, row(first + 3, 11)];
    expect(groupHourlyRows(plan, [columnsOf(rows)])).toEqual([
      {
        key: plan.hourKeys[0],
        in_period: true,
        import_micro: 0.005,
        export_micro: 0.001,
        kvarh_micro: -0.003,
        readings: 1,
        max_kva: first,
      },
    ]);
  });
});

describe('HourColumns.unpack', () => {
  it('reads each packed column as the database sends it (big-endian), and a month without rows as none', () => {
    const packed = (bytes: number, values: number[], write: (view: DataView, offset: number, v: number) => void) => {
      const buffer = new Uint8Array(bytes * values.length);
      const view = new DataView(buffer.buffer);
      for (const [i, value] of values.entries()) write(view, i * bytes, value);
      return buffer;
    };
    const int4 = (values: number[]) => packed(4, values, (view, offset, v) => view.setInt32(offset, v));
    const float8 = (values: number[]) => packed(8, values, (view, offset, v) => view.setFloat64(offset, v));
    const month = HourColumns.unpack({
      hour: int4([-1, 490_000]),
      import_uwh: float8([4e15 + 1, 0.5]),
      export_uwh: float8([1, 2]),
      uvarh: float8([-3, 4]),
      readings: int4([2, 1]),
      max_kva: float8([1.25, 7]),
    });
    expect([...month.hour, ...month.importUwh, ...month.uvarh, ...month.readings, ...month.maxKva]).toEqual([
      -1,
      490_000,
      4e15 + 1,
      0.5,
      -3,
      4,
      2,
      1,
      1.25,
      7,
    ]);
    const none = HourColumns.unpack(NO_HOURS);
    expect(none.length).toBe(0);
  });
});
