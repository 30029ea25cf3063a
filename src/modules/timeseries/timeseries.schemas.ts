import { z } from 'zod';
import { dateTime, integerParam, storable, uuid } from '../../http/fields.ts';
import { isTimeZone } from '../../lib/time-zone.ts';
import { CALENDAR_UNITS } from './calendar.ts';
import { CSV_FIELDS, DATE_FORMATS, DELIMITERS, type DelimiterName, parseColumnMap } from './import/csv-dialect.ts';
import { type BucketFields, bucketCount, DEFAULT_BUCKET_MINUTES, groupingOf } from './profile-buckets.ts';
import { MAX_READING_VALUE } from './readings.ts';

export const MAX_READINGS_PER_REQUEST = 50_000;
export const MAX_PROFILE_BUCKETS = 10_000;
export const MAX_METERS_PER_BATCH = 10_000;

/** A reading's time: the start of the meter's interval, as a Date. */
export const timestamp = dateTime("Start of the meter's interval");

/** What a start or end of a query that is no date-time at all is told. */
const EXPECTED_DATE_TIME = 'expected an ISO 8601 date-time with offset, e.g. 2025-06-01T00:00:00+02:00';

export const meterSn = storable(z.string().min(1).max(64));

const BUCKET_MINUTES = 'Bucket size in minutes, 1 to 1440; buckets are counted from start';
const bucketMinutesParam = integerParam(1, 1440).default(DEFAULT_BUCKET_MINUTES).describe(BUCKET_MINUTES);
const bucketMinutesField = z.number().int().min(1).max(1440).default(DEFAULT_BUCKET_MINUTES);

/**
 * The refinement that flags every item whose key an earlier item of the list already had, naming
 * that earlier one. An item without a key (its field failed to parse) is passed over.
 */
export function noDuplicates<T, K>(
  keyOf: (item: T) => K | undefined,
  issue: (index: number, earlier: number) => { path: PropertyKey[]; message: string },
) {
  return (items: readonly T[], ctx: z.RefinementCtx) => {
    const first = new Map<K, number>();
    items.forEach((item, index) => {
      const key = keyOf(item);
      if (key === undefined) return;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, index);
      else ctx.addIssue({ code: 'custom', ...issue(index, earlier) });
    });
  };
}

/** A reading's value (kWh, kvarh, kW, kVA, or a water meter's kL). */
export const readingValue = z.number().nonnegative().max(MAX_READING_VALUE);

const readingSchema = z.strictObject({
  ts: timestamp,
  import_kwh: readingValue,
  export_kwh: readingValue.optional().describe('0 when absent'),
  kvarh: readingValue.optional().describe('0 when absent'),
  power_kw: readingValue.optional().describe('Derived from import_kwh when absent'),
  kva: readingValue.optional().describe('Derived from power_kw and kvarh when absent'),
});

/** A body's readings: 1 to MAX_READINGS_PER_REQUEST, at most one per ts. */
export const readingsList = <T extends z.ZodType<{ ts: unknown }>>(reading: T) =>
  z
    .array(reading)
    .min(1)
    .max(MAX_READINGS_PER_REQUEST)
    .meta({ uniqueItems: true, description: 'At most one reading per ts (a repeated ts: 400)' })
    .superRefine(
      noDuplicates(
        // Also runs when a row failed: its ts may still be the unparsed text.
        (reading: { ts: unknown }) => (reading.ts instanceof Date ? reading.ts.getTime() : undefined),
        (index, earlier) => ({ path: [index, 'ts'], message: `Duplicate of readings.${earlier}.ts` }),
      ),
    );

export const ingestBody = z.strictObject({
  account_id: uuid
    .optional()
    .describe(
      "The meter's organization: required with a person's token; with a gateway's key, the gateway's when left out",
    ),
  meter_sn: meterSn,
  readings: readingsList(readingSchema),
});
export type IngestBody = z.infer<typeof ingestBody>;

interface Range {
  start: Date;
  end: Date;
}

// Object refinements also run when a field failed; such a field may still be unparsed text.
function datesParsed(range: Range): boolean {
  return range.start instanceof Date && range.end instanceof Date;
}

function endAfterStart(range: Range, ctx: z.RefinementCtx) {
  if (datesParsed(range) && range.end <= range.start) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'Must be after start' });
  }
}

const rangeFields = {
  start: dateTime('Inclusive', EXPECTED_DATE_TIME),
  end: dateTime('Exclusive', EXPECTED_DATE_TIME),
};

/** latest-power and energy-sum: bucket_minutes is accepted (the common parameters) but unused. */
export const meterRangeQuery = z
  .object({ account_id: uuid, meter_sn: meterSn, ...rangeFields, bucket_minutes: bucketMinutesParam })
  .superRefine(endAfterStart);
export type MeterRangeQuery = z.infer<typeof meterRangeQuery>;

const profileFields = {
  ...rangeFields,
  bucket_minutes: integerParam(1, 1440)
    .optional()
    .describe(`${BUCKET_MINUTES}; ${DEFAULT_BUCKET_MINUTES} unless group_by is given (not both)`),
  group_by: z
    .enum(CALENDAR_UNITS)
    .optional()
    .describe('Buckets of the calendar of tz instead of bucket_minutes: hour, day, ISO week (from Monday) or month'),
  tz: z
    .string()
    .refine(isTimeZone, 'Unknown time zone; expected an IANA name such as Europe/London')
    .default('UTC')
    .describe('IANA time zone of the group_by calendar'),
  fill: z.enum(['none', 'zero']).default('none').describe('zero: every bucket of the range, empty ones too'),
};

type ProfileFields = BucketFields & { start: Date; end: Date };

function checkBuckets(query: ProfileFields, ctx: z.RefinementCtx) {
  endAfterStart(query, ctx);
  if (query.group_by !== undefined && query.bucket_minutes !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['group_by'], message: 'Give either group_by or bucket_minutes, not both' });
    return;
  }
  // Fields that failed may still be unparsed text.
  const parsed = (value: unknown) => value === undefined || (Number.isInteger(value) && Number(value) >= 1);
  if (!datesParsed(query) || !parsed(query.bucket_minutes) || !isTimeZone(query.tz)) return;
  if (query.group_by !== undefined && !CALENDAR_UNITS.includes(query.group_by)) return;
  const buckets = bucketCount(groupingOf(query), query);
  if (buckets > MAX_PROFILE_BUCKETS) {
    ctx.addIssue({
      code: 'custom',
      path: [query.group_by ? 'group_by' : 'bucket_minutes'],
      message: `The range holds ${buckets} buckets; at most ${MAX_PROFILE_BUCKETS} are allowed`,
    });
  }
}

export const profileQuery = z
  .object({ account_id: uuid, meter_sn: meterSn, ...profileFields })
  .superRefine(checkBuckets);
export type ProfileQuery = z.infer<typeof profileQuery>;

export const buildingProfileQuery = z.object({ account_id: uuid, ...profileFields }).superRefine(checkBuckets);
export type BuildingProfileQuery = z.infer<typeof buildingProfileQuery>;

export const energySumsBody = z
  .strictObject({
    account_id: uuid,
    meter_sns: z
      .array(meterSn)
      .min(1)
      .max(MAX_METERS_PER_BATCH)
      .meta({ uniqueItems: true, description: 'Each serial at most once (a repeated one: 400)' })
      .superRefine(
        noDuplicates(
          (serial: string) => serial,
          (index, earlier) => ({ path: [index], message: `Duplicate of meter_sns.${earlier}` }),
        ),
      ),
    ...rangeFields,
    bucket_minutes: bucketMinutesField.describe('Accepted as in the contract; sums do not depend on it'),
    max_meters_per_query: z.number().int().min(1).max(1000).default(100).describe('Meters summed per database query'),
  })
  .superRefine(endAfterStart);
export type EnergySumsBody = z.infer<typeof energySumsBody>;

const columnMapText = z
  .string()
  .max(2000)
  .transform((text, ctx) => {
    const map = parseColumnMap(text);
    if (map === null) {
      ctx.addIssue({ code: 'custom', message: `Must be a JSON object of ${CSV_FIELDS.join(', ')} to column names` });
      return z.NEVER;
    }
    return map;
  });

/** The query of a CSV body of the readings route (extensions §13.5): where its readings go and how it is written. */
export const csvReadingsQuery = z.object({
  account_id: uuid
    .optional()
    .describe(
      "The meters' organization: required with a person's token; with a gateway's key, the gateway's when left out",
    ),
  meter_sn: meterSn.optional().describe('The meter of every line, for a file without a meter column'),
  tz: z
    .string()
    .refine(isTimeZone, 'Must be an IANA time zone such as Africa/Johannesburg')
    .optional()
    .describe('The time zone of times written without a UTC offset (refused without one)'),
  columns: columnMapText
    .optional()
    .describe(
      'JSON: which header column holds each field, e.g. {"meter_sn":"Meter","ts":"Date","time":"Time","import_kwh":"kWh","kvarh":"kVArh"}; names matched case-insensitively, trimmed; time joins a separate time column to the date column; other columns are left out',
    ),
  date_format: z.enum(DATE_FORMATS).optional().describe('How dates are written (default ISO)'),
  delimiter: z
    .enum(Object.keys(DELIMITERS) as [DelimiterName])
    .optional()
    .describe('What separates fields: , ; or tab; detected from the header line when absent'),
  decimal: z.enum(['.', ',']).optional().describe('The decimal separator (default .)'),
});
export type CsvReadingsQuery = z.infer<typeof csvReadingsQuery>;
