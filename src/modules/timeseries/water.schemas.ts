import { z } from 'zod';
import { dateTime, decimal, uuid } from '../../http/fields.ts';
import { type ColumnMap, parseFieldMap } from './import/csv-dialect.ts';
import {
  csvReadingsQuery,
  meterSn,
  noDuplicates,
  readingsList,
  readingValue,
  timestamp,
} from './timeseries.schemas.ts';

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

const WATER_CSV_FIELDS = ['meter_sn', 'ts', 'time', 'volume_kl'] as const;

/** Without a column map, a water file's columns are named meter_sn, ts and volume_kl. */
export const WATER_COLUMNS: ColumnMap = { import_kwh: 'volume_kl' };

/** A water file's column map; its volume_kl column is read as the value (kept where electricity's imported kWh are). */
const waterColumnMapText = z
  .string()
  .max(2000)
  .transform((text, ctx): ColumnMap => {
    const map = parseFieldMap(text, WATER_CSV_FIELDS);
    if (map === null) {
      ctx.addIssue({
        code: 'custom',
        message: `Must be a JSON object of ${WATER_CSV_FIELDS.join(', ')} to column names`,
      });
      return z.NEVER;
    }
    const { volume_kl, ...rest } = map;
    return { ...WATER_COLUMNS, ...rest, ...(volume_kl ? { import_kwh: volume_kl } : {}) };
  });

/** The query of a CSV body of the water readings route: the electricity route's, with volume_kl as the value column. */
export const waterCsvQuery = csvReadingsQuery.extend({
  account_id: uuid.optional().describe("The meters' organization: required with a text/csv body"),
  columns: waterColumnMapText
    .optional()
    .describe(
      'JSON: which header column holds each field, e.g. {"meter_sn":"Meter","ts":"Date","time":"Time","volume_kl":"kL"}; names matched case-insensitively, trimmed; other columns are left out',
    ),
});
export type WaterCsvQuery = z.infer<typeof waterCsvQuery>;

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
