import { z } from 'zod';
import { integer, listEnvelope, okEnvelope, timestamp } from '../../http/responses.ts';

const kwh = z.number().describe('Rounded to 6 decimals');

const bucketStart = timestamp.describe("Start of the bucket (with group_by: its unit's first instant, UTC)");
const label = z
  .string()
  .optional()
  .describe('With group_by: the local name of the unit, such as 2025-03-30T14, 2025-03-30, 2025-W13 or 2025-03');

const energyBucket = z
  .strictObject({ ts: bucketStart, label, import_kwh: kwh, export_kwh: kwh, net_kwh: kwh, kvarh: kwh })
  .meta({
    examples: [{ ts: '2026-10-01T08:00:00.000Z', import_kwh: 16.252, export_kwh: 0, net_kwh: 16.252, kvarh: 13.824 }],
  });

const power = kwh.nullable().describe('Rounded to 6 decimals; null in a bucket without readings (fill=zero)');

const powerBucket = z
  .strictObject({ ts: bucketStart, label, avg_kw: power, max_kw: power, avg_kva: power, max_kva: power })
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

const sourceEnergy = z.strictObject({
  import_kwh: kwh,
  export_kwh: kwh,
  net_kwh: kwh.describe('import_kwh - export_kwh'),
});

const buildingBucket = z
  .strictObject({
    ts: bucketStart,
    label,
    sources: z
      .strictObject({
        grid: sourceEnergy.optional(),
        solar: sourceEnergy.optional(),
        genset: sourceEnergy.optional(),
        inverter: sourceEnergy.optional(),
        load: sourceEnergy.optional(),
      })
      .describe("Each source of the block's dashboard config that has an electricity meter (zeros without readings)"),
  })
  .meta({
    examples: [
      {
        ts: '2026-09-30T22:00:00.000Z',
        label: '2026-10-01',
        sources: {
          grid: { import_kwh: 402.118, export_kwh: 18.5, net_kwh: 383.618 },
          solar: { import_kwh: 0, export_kwh: 251.341, net_kwh: -251.341 },
          load: { import_kwh: 634.959, export_kwh: 0, net_kwh: 634.959 },
        },
      },
    ],
  });

const PROFILE = 'The buckets that have readings (every bucket of the range with fill=zero), ascending';

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
  energyProfile: okEnvelope(z.array(energyBucket), PROFILE),
  powerProfile: okEnvelope(z.array(powerBucket), PROFILE),
  buildingEnergyProfile: okEnvelope(z.array(buildingBucket), PROFILE),
  latestPower: okEnvelope(latestPower.nullable(), 'The latest reading in the range, or null when it has none'),
  energySum: okEnvelope(energySum, "The meter's sums over the range"),
  energySums: listEnvelope(energySum, 'One sum per serial, in the order requested'),
};
