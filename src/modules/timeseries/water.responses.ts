import { z } from 'zod';
import { integer, okEnvelope, timestamp } from '../../http/responses.ts';
import { timeseriesResponses } from './timeseries.responses.ts';

const kl = z.number().describe('kL, rounded to 6 decimals');

const volumeBucket = z
  .strictObject({
    ts: timestamp.describe("Start of the bucket (with group_by: its unit's first instant, UTC)"),
    label: z.string().optional().describe('With group_by: the local name of the unit, such as 2025-03-30 or 2025-03'),
    volume_kl: kl,
  })
  .meta({ examples: [{ ts: '2026-09-30T22:00:00.000Z', label: '2026-10', volume_kl: 214.5 }] });

const volumeSum = z
  .strictObject({
    meter_sn: z.string(),
    start: timestamp,
    end: timestamp,
    volume_kl: kl,
    readings: integer.describe('Interval readings summed (spread register reads among them)'),
  })
  .meta({
    examples: [
      {
        meter_sn: 'DEMO-WATER-001',
        start: '2026-09-30T22:00:00.000Z',
        end: '2026-10-31T22:00:00.000Z',
        volume_kl: 214.5,
        readings: 1488,
      },
    ],
  });

const registerRead = z
  .strictObject({
    read_at: timestamp,
    register_kl: kl.describe('The cumulative dial reading in kL'),
    estimated: z.boolean(),
    rollover: z.boolean().describe('Stored with rollover: true (the dial may have passed zero before it)'),
    consumption_kl: kl.nullable().describe('kL used since the read before; null for the first'),
  })
  .meta({
    examples: [
      {
        read_at: '2026-10-01T08:00:00.000Z',
        register_kl: 4210.5,
        estimated: false,
        rollover: false,
        consumption_kl: 214.5,
      },
    ],
  });

export const waterResponses = {
  readingsStored: timeseriesResponses.ingested,
  registerReadsStored: okEnvelope(
    z
      .strictObject({
        inserted: integer.describe('Reads new to the meter'),
        updated: integer.describe('Reads that replaced stored ones (same read_at)'),
        intervals: integer.describe("The meter's interval readings written anew from the spread consumption"),
      })
      .meta({ examples: [{ inserted: 1, updated: 0, intervals: 1488 }] }),
    'How many reads were new, how many replaced stored ones, and how many intervals were spread anew',
  ),
  registerReads: okEnvelope(z.array(registerRead), "The meter's register reads, oldest first"),
  volumeProfile: okEnvelope(
    z.array(volumeBucket),
    'The buckets that have readings (every bucket of the range with fill=zero), ascending',
  ),
  volumeSum: okEnvelope(volumeSum, "The meter's volume over the range"),
};
