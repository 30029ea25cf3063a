import { z } from 'zod';
import { integer, listEnvelope, okEnvelope, timestamp } from '../../http/responses.ts';

const kwh = z.number().describe('Rounded to 6 decimals');

const energyBucket = z
  .strictObject({
    ts: timestamp.describe('Start of the bucket'),
    import_kwh: kwh,
    export_kwh: kwh,
    net_kwh: kwh,
    kvarh: kwh,
  })
  .meta({
    examples: [{ ts: '2026-10-01T08:00:00.000Z', import_kwh: 16.252, export_kwh: 0, net_kwh: 16.252, kvarh: 13.824 }],
  });

const powerBucket = z
  .strictObject({ ts: timestamp.describe('Start of the bucket'), avg_kw: kwh, max_kw: kwh, avg_kva: kwh, max_kva: kwh })
  .meta({
    examples: [
      { ts: '2026-10-01T08:00:00.000Z', avg_kw: 32.504, max_kw: 32.504, avg_kva: 42.672262, max_kva: 42.672262 },
    ],
  });

const latestPower = z
  .strictObject({ ts: timestamp.describe('Start of the interval of the latest reading'), power_kw: kwh, kva: kwh })
  .meta({ examples: [{ ts: '2026-10-01T08:30:00.000Z', power_kw: 31.152, kva: 42.075155 }] });

const energySum = z
  .strictObject({
    meter_sn: z.string(),
    start: timestamp,
    end: timestamp,
    import_kwh: kwh,
    export_kwh: kwh,
    net_kwh: kwh.describe('import_kwh - export_kwh'),
    kvarh: kwh,
    max_kva: kwh.nullable().describe('null without readings'),
    readings: integer.describe('Readings summed'),
  })
  .meta({
    examples: [
      {
        meter_sn: 'DEMO-GRID-001',
        start: '2026-09-30T22:00:00.000Z',
        end: '2026-10-31T22:00:00.000Z',
        import_kwh: 16120.391,
        export_kwh: 520.643,
        net_kwh: 15599.748,
        kvarh: 10036.388,
        max_kva: 70.690838,
        readings: 1488,
      },
    ],
  });

export const timeseriesResponses = {
  ingested: okEnvelope(
    z
      .strictObject({
        inserted: integer.describe('Readings new to the meter'),
        updated: integer.describe('Readings that replaced stored ones (same meter and ts)'),
      })
      .meta({ examples: [{ inserted: 1, updated: 0 }] }),
    'How many readings were new and how many replaced stored ones',
  ),
  energyProfile: okEnvelope(z.array(energyBucket), 'The buckets that have readings, ascending'),
  powerProfile: okEnvelope(z.array(powerBucket), 'The buckets that have readings, ascending'),
  latestPower: okEnvelope(latestPower.nullable(), 'The latest reading in the range, or null when it has none'),
  energySum: okEnvelope(energySum, "The meter's sums over the range"),
  energySums: listEnvelope(energySum, 'One sum per serial, in the order requested'),
};
