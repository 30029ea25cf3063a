import type { FastifySchemaCompiler } from 'fastify';
import type { ZodType } from 'zod';
import { ok } from '../../http/envelope.ts';
import { EXAMPLE, EXAMPLE_MONTH, withExample, withParamExamples } from '../../http/examples.ts';
import { accountQuery, recordIdParams } from '../../http/fields.ts';
import type { KeptAnswers } from '../../http/kept-answers.ts';
import { failures } from '../../http/responses.ts';
import { ADMITTED_AS_WORK, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { TextBody } from '../../http/text-bodies.ts';
import type { App } from '../../http/types.ts';
import { zodValidatorCompiler } from '../../http/validation.ts';
import { acceptCsvBodies, CsvBody } from './csv-body.ts';
import { MAX_PROFILE_BUCKETS, MAX_READINGS_PER_REQUEST, meterRangeQuery, profileQuery } from './timeseries.schemas.ts';
import type { TimeseriesService } from './timeseries.service.ts';
import { waterResponses } from './water.responses.ts';
import {
  MAX_REGISTER_READS,
  registerReadsBody,
  type WaterReadingsBody,
  waterCsvQuery,
  waterReadingsBody,
} from './water.schemas.ts';

const tags = ['Water timeseries'];
const base = '/api/v1/timeseries/water';
const DEMO_WATER = 'DEMO-WATER-001';
const DEMO_WATER_ID = 4;
const METER_CHECKS =
  'Meters of type WATER (an electricity meter: 400). Refusals in this order: 403 when the caller is not a member of account_id (or, to write, not OWNER or ADMIN); then for the serial: 403 when its meter belongs to another organization, 404 when no meter has it, 400 when it is not a water meter.';
const RANGE = 'Readings with start <= ts < end (ISO 8601 with Z or an offset; end after start).';
const SPREAD =
  "Register reads count as readings: between two consecutive reads the kL used is spread evenly over the time between them, into the meter's intervals.";
const CSV_BODY =
  'A text/csv body is a spreadsheet of readings read as the electricity readings route reads one, with the same query parameters (a JSON body takes account_id and meter_sn from the body and leaves the query out), its value column volume_kl: without columns the header names meter_sn (unless the query gives the meter), ts and volume_kl. A line that does not fit fails the whole request: 400 naming its line and column (`line 3: volume_kl (column "kL"): ...`). Every meter and reading of the file is checked before any is stored, then all are stored in one transaction (all or none); the answer adds up inserted and updated.';

/** The route's text/csv body in the API reference: a spreadsheet of one meter, read with the query's example options. */
const CSV_WATER_READINGS: TextBody = {
  type: 'string',
  description:
    'A spreadsheet of water readings: a header line, then a line per reading, read with the query parameters (columns, date_format, delimiter, decimal, tz, meter_sn).',
  examples: [['Date;Time;kL', '01/11/2026;00:00;0,35', '01/11/2026;00:30;0,4', ''].join('\n')],
};

/** A CSV body comes as bytes, read by the service with the query's options; the rest of the request as every route's. */
const csvOrValidated: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  return route.httpPart === 'body' ? (value) => (value instanceof CsvBody ? { value } : validate(value)) : validate;
};

const meterRange = { account_id: EXAMPLE.accountId, meter_sn: DEMO_WATER, ...EXAMPLE_MONTH };
const METER_ERRORS = {
  400: `meter_sn: Meter DEMO-GRID-001 is not a water meter`,
  403: `Meter ${DEMO_WATER} belongs to another organization`,
  404: 'Meter DEMO-WATER-999 not found',
} as const;

/** Water: interval readings and register reads in kL, volume sums and profiles (extensions §13.6). */
export function registerWaterRoutes(app: App, timeseries: TimeseriesService, kept: KeptAnswers): void {
  // A CSV body is read once its query is validated, with its options (csv-body.ts); a JSON body as every route's.
  app.register(async (scope: App) => {
    acceptCsvBodies(scope);
    scope.setValidatorCompiler(csvOrValidated);
    scope.post(
      `${base}/readings`,
      {
        config: { ownAdmission: true },
        schema: {
          tags,
          operationId: 'storeWaterReadings',
          summary: 'Store water readings',
          description: `Stores interval readings of one water meter in kL: 1 to ${MAX_READINGS_PER_REQUEST.toLocaleString('en')} per request, all or none. ts is the start of one of the meter's intervals; volume_kl from 0 to 1,000,000. A reading for a stored (meter, ts) replaces it. The store is the organization's work, after the meter's earlier stores: ${ADMITTED_AS_WORK} ${ROLE_NEEDED.write} ${METER_CHECKS} ${CSV_BODY}`,
          querystring: withParamExamples(waterCsvQuery, {
            account_id: EXAMPLE.accountId,
            meter_sn: DEMO_WATER,
            delimiter: ';',
            decimal: ',',
            date_format: 'DD/MM/YYYY',
            tz: 'Africa/Johannesburg',
            columns: '{"ts":"Date","time":"Time","volume_kl":"kL"}',
          }),
          body: withExample(waterReadingsBody, {
            account_id: EXAMPLE.accountId,
            meter_sn: DEMO_WATER,
            readings: [{ ts: EXAMPLE_MONTH.start, volume_kl: 0.35 }],
          }),
          textBodies: { 'text/csv': CSV_WATER_READINGS },
          response: {
            200: waterResponses.readingsStored,
            ...failures({
              ...METER_ERRORS,
              400: "readings.0.ts: Not the start of one of the meter's 30-minute intervals",
              429: true,
            }),
          },
        },
      },
      async (req) => {
        const body = req.body as unknown;
        if (body instanceof CsvBody) return ok(await timeseries.storeWaterCsv(req.auth, req.query, body.bytes));
        return ok(await timeseries.storeWaterReadings(req.auth, body as WaterReadingsBody));
      },
    );
  });
  app.post(
    '/api/v1/meters/:id/register-reads',
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'storeRegisterReads',
        summary: "Store a water meter's register reads",
        description: `Stores cumulative dial reads (kL) of a water meter, as a person or the municipality reads them: 1 to ${MAX_REGISTER_READS.toLocaleString('en')} per request, all or none; a read at a stored read_at replaces it. A read lower than the one before it is 400 unless rollover is true (the dial passed zero: it counted up to the smallest power of ten above the read before, then on from zero). ${SPREAD} The intervals the new reads change are written anew (interval readings sent for them are replaced). ${ADMITTED_AS_WORK} ${ROLE_NEEDED.write} ${recordChecks('meter')} A meter that is not a water meter: 400.`,
        params: withParamExamples(recordIdParams('Meter'), { id: DEMO_WATER_ID }),
        body: withExample(registerReadsBody, {
          account_id: EXAMPLE.accountId,
          reads: [{ read_at: EXAMPLE_MONTH.end, register_kl: 4210.5, estimated: false }],
        }),
        response: {
          200: waterResponses.registerReadsStored,
          ...failures({
            400: 'reads.0.register_kl: 4100 kL on 2026-11-01T06:00:00.000Z is lower than 4210.5 kL on 2026-10-01T06:00:00.000Z; send rollover: true when the dial passed zero',
            403: true,
            404: 'Meter not found',
            429: true,
          }),
        },
      },
    },
    async (req) => ok(await timeseries.storeRegisterReads(req.auth, req.params.id, req.body)),
  );
  app.get(
    '/api/v1/meters/:id/register-reads',
    {
      schema: {
        tags,
        operationId: 'listRegisterReads',
        summary: "A water meter's register reads",
        description: `The meter's register reads, oldest first, each with the kL used since the read before. ${ROLE_NEEDED.read} ${recordChecks('meter')} A meter that is not a water meter: 400.`,
        params: withParamExamples(recordIdParams('Meter'), { id: DEMO_WATER_ID }),
        querystring: withParamExamples(accountQuery, { account_id: EXAMPLE.accountId }),
        response: {
          200: waterResponses.registerReads,
          ...failures({ 400: 'Meter DEMO-GRID-001 is not a water meter', 403: true, 404: 'Meter not found' }),
        },
      },
    },
    async (req) => ok(await timeseries.registerReads(req.auth, req.params.id, req.query)),
  );
  app.get(
    `${base}/volume-profile`,
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'getVolumeProfile',
        summary: "A water meter's volume profile",
        description: `kL per bucket. ${RANGE} ${SPREAD} Buckets as the energy profile's: bucket_minutes (1 to 1440, default 30) counted from start, or group_by (hour, day, week, month) in the calendar of tz; at most ${MAX_PROFILE_BUCKETS.toLocaleString('en')} buckets; with fill=zero every bucket of the range. A profile not kept is computed as the organization's work: ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} ${METER_CHECKS}`,
        querystring: withParamExamples(profileQuery, { ...meterRange, group_by: 'day', tz: 'Africa/Johannesburg' }),
        response: { 200: waterResponses.volumeProfile, ...failures({ ...METER_ERRORS, 429: true }) },
      },
    },
    async (req, reply) => kept.send(req, reply, await timeseries.volumeProfile(req.auth, req.query)),
  );
  app.get(
    `${base}/volume-sum`,
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'getVolumeSum',
        summary: "A water meter's volume sum",
        description: `The kL used over the range and the number of readings (0 without readings). ${RANGE} ${SPREAD} bucket_minutes is accepted and unused. ${ROLE_NEEDED.read} ${METER_CHECKS}`,
        querystring: withParamExamples(meterRangeQuery, meterRange),
        response: { 200: waterResponses.volumeSum, ...failures({ ...METER_ERRORS, 429: true }) },
      },
    },
    async (req) => ok(await timeseries.volumeSum(req.auth, req.query)),
  );
}
