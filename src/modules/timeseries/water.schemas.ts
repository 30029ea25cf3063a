import { z } from 'zod';
import { dateTime, decimal, uuid } from '../../http/fields.ts';
import { meterSn, noDuplicates, readingsList, readingValue, timestamp } from './timeseries.schemas.ts';

export const MAX_REGISTER_READS = 1000;
/** A dial of eight digits of kL, read to the millilitre. */
const MAX_REGISTER_KL = 99_999_999.999999;

export const waterReadingsBody = z.strictObject({
  account_id: uuid,
  meter_sn: meterSn,
  readings: readingsList(
    z.strictObject({ ts: timestamp, volume_kl: readingValue.describe('kL used in the interval') }),
  ),
});
export type WaterReadingsBody = z.infer<typeof waterReadingsBody>;

export const registerReadsBody = z.strictObject({
  account_id: uuid,
  reads: z
    .array(
      z.strictObject({
        read_at: dateTime('When the dial was read'),
        register_kl: decimal(0, MAX_REGISTER_KL, 6).describe('The cumulative dial reading in kL'),
        estimated: z.boolean().default(false).describe('An estimate (by the municipality), not a read of the dial'),
      }),
    )
    .min(1)
    .max(MAX_REGISTER_READS)
    .meta({ uniqueItems: true, description: 'At most one read per read_at (a repeated one: 400)' })
    .superRefine(
      noDuplicates(
        (read: { read_at: unknown }) => (read.read_at instanceof Date ? read.read_at.getTime() : undefined),
        (index, earlier) => ({ path: [index, 'read_at'], message: `Duplicate of reads.${earlier}.read_at` }),
      ),
    ),
  rollover: z
    .boolean()
    .default(false)
    .describe('A read lower than the one before it is accepted: the dial passed zero (else 400)'),
});
export type RegisterReadsBody = z.infer<typeof registerReadsBody>;
