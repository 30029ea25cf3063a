import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { ZodType } from 'zod';
import { ok, okAll } from '../../http/envelope.ts';
import { EXAMPLE, EXAMPLE_MONTH, withExample, withParamExamples } from '../../http/examples.ts';
import { idParams } from '../../http/fields.ts';
import type { KeptAnswers } from '../../http/kept-answers.ts';
import { failures } from '../../http/responses.ts';
import { ADMITTED_AS_WORK, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { TextBody } from '../../http/text-bodies.ts';
import type { App } from '../../http/types.ts';
import { zodValidatorCompiler } from '../../http/validation.ts';
import { acceptCsvBodies, CsvBody } from './csv-body.ts';
import type { IngestParser } from './ingest-body/ingest-parser.ts';
import type { ParsedIngest } from './ingest-body/parse-ingest.ts';
import { timeseriesResponses } from './timeseries.responses.ts';
import {
  buildingProfileQuery,
  csvReadingsQuery,
  energySumsBody,
  ingestBody,
  MAX_METERS_PER_BATCH,
  MAX_PROFILE_BUCKETS,
  MAX_READINGS_PER_REQUEST,
  meterRangeQuery,
  profileQuery,
} from './timeseries.schemas.ts';
import type { TimeseriesService } from './timeseries.service.ts';

const tags = ['Electricity timeseries'];
const base = '/api/v1/timeseries/electricity';
const INGEST_BODY_LIMIT = 16 * 1024 * 1024;
const METER_CHECKS =
  'Meters of type ELECTRICITY, SOLAR, GENSET, EV and HVAC. Refusals in this order: 403 when the caller is not a member of account_id (or, to write, not OWNER or ADMIN); then for the serial: 403 when its meter belongs to another organization, 404 when no meter has it, 400 when it is not an electricity meter.';
const CSV_BODY =
  'A text/csv body (up to 16 MiB, as large bodies are admitted) is a spreadsheet of readings: a header line, then a line per reading, read with the query parameters (a JSON body takes its account_id and meter_sn from the body and leaves those of the query out): account_id, meter_sn (the meter of a file without a meter column), tz (the time zone of times without a UTC offset), columns (JSON: which header column holds each field; without it the columns are named meter_sn, ts, import_kwh, export_kwh, kvarh, power_kw, kva), date_format (ISO default, YYYY/MM/DD, YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY, each optionally followed by HH:mm or HH:mm:ss; a time column joins the date column), delimiter (, ; or tab, detected from the header line when absent) and decimal (. or ,). A line that does not fit fails the whole request: 400 naming its line and column (`line 3: import_kwh (column "kWh"): ...`). Every meter and reading of the file is checked before any is stored, then all are stored as the JSON form stores them, in one transaction (all or none); the answer adds up inserted and updated.';
const GATEWAY_PUSH =
  "A gateway pushes with `authorization: Gateway <key>` instead of a person's token: account_id may then be left out (the gateway's organization), and a meter of its organization not wired to it is 403; its last_seen_at is set by each store.";
const RANGE = 'Readings with start <= ts < end (ISO 8601 with Z or an offset; end after start).';
const BUCKETS = `Buckets: bucket_minutes (1 to 1440, default 30) counted from start, or instead group_by (hour, day, week = ISO week from Monday, month) in the calendar of tz (an IANA name, default UTC): a day runs from local midnight to midnight (23 or 25 hours across a daylight-saving change), ts is the unit's first instant in UTC and label its local name (2025-03-30T14, 2025-03-30, 2025-W13, 2025-03). At most ${MAX_PROFILE_BUCKETS.toLocaleString('en')} buckets (400 beyond). Only buckets with readings are returned, ascending; with fill=zero every bucket of the range. A profile not kept is computed as the organization's work: ${ADMITTED_AS_WORK}`;
const byLocalDay = { group_by: 'day', tz: 'Africa/Johannesburg' } as const;
const meterRange = { account_id: EXAMPLE.accountId, meter_sn: 'DEMO-GRID-001', ...EXAMPLE_MONTH };
const METER_ERRORS = {
  400: 'end: Must be after start',
  403: 'Meter DEMO-GRID-001 belongs to another organization',
  404: 'Meter DEMO-GRID-999 not found',
} as const;

/** The readings route's text/csv body in the API reference: a portal's file, read with the query's example options. */
const CSV_READINGS: TextBody = {
  type: 'string',
  description:
    'A spreadsheet of readings: a header line, then a line per reading, read with the query parameters (columns, date_format, delimiter, decimal, tz, meter_sn).',
  examples: [
    [
      'Meter;Date;Time;kWh;kVArh',
      'DEMO-GRID-001;2026/11/01;00:00;12,5;3,1',
      'DEMO-GRID-001;2026/11/01;00:30;11,75;2,9',
      '',
    ].join('\n'),
  ],
};

/** The ingest's body comes validated from its parser (parse-ingest.ts); the rest of the request as every route's. */
const bodyParsedAlready: FastifySchemaCompiler<ZodType> = (route) =>
  route.httpPart === 'body' ? (value) => ({ value }) : zodValidatorCompiler(route);

export function registerTimeseriesRoutes(
  app: App,
  timeseries: TimeseriesService,
  kept: KeptAnswers,
  ingestParser: IngestParser,
): void {
  // Its body is parsed and validated by the ingest parser (large ones off the main thread), in a
  // scope of its own so that no other route parses that way.
  app.register(async (scope: App) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req: FastifyRequest, body: Buffer) =>
      ingestParser.parse(req.auth, body),
    );
    // A CSV body is read once its query is validated, with its options (csv-body.ts).
    acceptCsvBodies(scope);
    scope.setValidatorCompiler(bodyParsedAlready);
    scope.post(
      `${base}/readings`,
      {
        config: { ownAdmission: true, gatewayKeys: true },
        bodyLimit: INGEST_BODY_LIMIT,
        schema: {
          tags,
          operationId: 'storeReadings',
          summary: 'Store readings',
          description: `Stores interval readings of one meter: 1 to ${MAX_READINGS_PER_REQUEST.toLocaleString('en')} per request (body up to 16 MiB), all or none. ts is the start of one of the meter's intervals; values from 0 to 1,000,000; export_kwh and kvarh default to 0, power_kw and kva are derived when absent. A reading for a stored (meter, ts) replaces it, so sending the same readings again changes nothing. Like every request, it takes one of its user's REQUESTS_PER_USER slots before its body is read. A body over 64 KiB is parsed off the main thread once it has arrived, as work of the large bodies (users in turn); the store is the organization's work, after the meter's earlier stores: ${ADMITTED_AS_WORK} A request whose client goes away while it waits for its turn is not carried out. ${ROLE_NEEDED.write} ${METER_CHECKS} ${GATEWAY_PUSH} ${CSV_BODY}`,
          querystring: withParamExamples(csvReadingsQuery, {
            account_id: EXAMPLE.accountId,
            delimiter: ';',
            decimal: ',',
            date_format: 'YYYY/MM/DD',
            tz: 'Africa/Johannesburg',
            columns: '{"meter_sn":"Meter","ts":"Date","time":"Time","import_kwh":"kWh","kvarh":"kVArh"}',
          }),
          body: withExample(ingestBody, {
            account_id: EXAMPLE.accountId,
            meter_sn: 'DEMO-GRID-001',
            readings: [{ ts: EXAMPLE_MONTH.start, import_kwh: 12.5, export_kwh: 0, kvarh: 3.1 }],
          }),
          textBodies: { 'text/csv': CSV_READINGS },
          response: {
            200: timeseriesResponses.ingested,
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
        if (body instanceof CsvBody) return ok(await timeseries.ingestCsv(req.auth, req.query, body.bytes));
        return ok(await timeseries.ingest(req.auth, body as ParsedIngest));
      },
    );
  });
  app.get(
    `${base}/energy-profile`,
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'getEnergyProfile',
        summary: "A meter's energy profile",
        description: `Energy per bucket: imported, exported, net (import - export) kWh and kvarh. ${RANGE} ${BUCKETS} ${ROLE_NEEDED.read} ${METER_CHECKS}`,
        querystring: withParamExamples(profileQuery, { ...meterRange, ...byLocalDay }),
        response: { 200: timeseriesResponses.energyProfile, ...failures({ ...METER_ERRORS, 429: true }) },
      },
    },
    async (req, reply) => kept.send(req, reply, await timeseries.energyProfile(req.auth, req.query)),
  );
  app.get(
    `${base}/power-profile`,
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'getPowerProfile',
        summary: "A meter's power profile",
        description: `Power per bucket: mean and maximum of the readings' kW and kVA. ${RANGE} ${BUCKETS} ${ROLE_NEEDED.read} ${METER_CHECKS}`,
        querystring: withParamExamples(profileQuery, { ...meterRange, ...byLocalDay }),
        response: { 200: timeseriesResponses.powerProfile, ...failures({ ...METER_ERRORS, 429: true }) },
      },
    },
    async (req, reply) => kept.send(req, reply, await timeseries.powerProfile(req.auth, req.query)),
  );
  app.get(
    `${base}/latest-power`,
    {
      schema: {
        tags,
        operationId: 'getLatestPower',
        summary: "A meter's latest power",
        description: `The power of the latest reading in the range, or data null when the range has none. ${RANGE} bucket_minutes is accepted and unused. ${ROLE_NEEDED.read} ${METER_CHECKS}`,
        querystring: withParamExamples(meterRangeQuery, meterRange),
        response: { 200: timeseriesResponses.latestPower, ...failures(METER_ERRORS) },
      },
    },
    async (req) => ok(await timeseries.latestPower(req.auth, req.query)),
  );
  app.get(
    `${base}/energy-sum`,
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'getEnergySum',
        summary: "A meter's energy sum",
        description: `Imported, exported and net kWh, kvarh, the highest kVA and the number of readings over the range (zeros and max_kva null without readings). ${RANGE} bucket_minutes is accepted and unused. ${ROLE_NEEDED.read} ${METER_CHECKS}`,
        querystring: withParamExamples(meterRangeQuery, meterRange),
        response: { 200: timeseriesResponses.energySum, ...failures(METER_ERRORS) },
      },
    },
    async (req) => ok(await timeseries.energySum(req.auth, req.query)),
  );
  app.post(
    `${base}/energy-sums`,
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'getEnergySums',
        summary: 'Energy sums of many meters',
        description: `The energy sum of each serial in meter_sns (1 to ${MAX_METERS_PER_BATCH.toLocaleString('en')}, distinct), in request order, summed max_meters_per_query meters (1 to 1,000, default 100) per database query. One unknown or foreign serial fails the whole request. ${ADMITTED_AS_WORK} ${RANGE} ${ROLE_NEEDED.read} ${METER_CHECKS}`,
        body: withExample(energySumsBody, {
          account_id: EXAMPLE.accountId,
          meter_sns: ['DEMO-GRID-001', 'DEMO-SOLAR-001', 'DEMO-LOAD-001'],
          ...EXAMPLE_MONTH,
        }),
        response: {
          200: timeseriesResponses.energySums,
          ...failures({ ...METER_ERRORS, 400: 'meter_sns.1: Duplicate of meter_sns.0', 429: true }),
        },
      },
    },
    async (req) => okAll(await timeseries.energySums(req.auth, req.body)),
  );
  app.get(
    '/api/v1/building_blocks/:id/energy-profile',
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'getBuildingBlockEnergyProfile',
        summary: "A building block's energy profile by source",
        description: `Per bucket, the imported, exported and net kWh of each energy source of the block's dashboard config (grid, solar, genset, inverter, load) that has an electricity meter; a source whose meter has no reading in a bucket shows zeros. ${RANGE} ${BUCKETS} ${ROLE_NEEDED.read} ${recordChecks('building block')} A block without a dashboard config: 404.`,
        params: withParamExamples(idParams, { id: 1 }),
        querystring: withParamExamples(buildingProfileQuery, {
          account_id: EXAMPLE.accountId,
          ...EXAMPLE_MONTH,
          ...byLocalDay,
        }),
        response: {
          200: timeseriesResponses.buildingEnergyProfile,
          ...failures({ 400: 'end: Must be after start', 403: true, 404: 'Dashboard config not found', 429: true }),
        },
      },
    },
    async (req, reply) =>
      kept.send(req, reply, await timeseries.buildingEnergyProfile(req.auth, req.params.id, req.query)),
  );
}
