import { statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Presets, SingleBar } from 'cli-progress';
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import type { Database } from '../db/types.ts';
import { uuid } from '../http/fields.ts';
import { isTimeZone } from '../lib/time-zone.ts';
import {
  CSV_FIELDS,
  DATE_FORMATS,
  DELIMITERS,
  type DelimiterName,
  parseColumnMap,
} from '../modules/timeseries/import/csv-dialect.ts';
import {
  DEFAULT_BATCH_SIZE,
  type ImportProgress,
  type ImportSummary,
  PartialImportError,
} from '../modules/timeseries/import/csv-import.ts';
import { importIntoDatabase } from '../modules/timeseries/import/import-into-database.ts';
import { importThroughServer, READINGS_PATH } from '../modules/timeseries/import/import-through-server.ts';
import { MissingOffsetError } from '../modules/timeseries/import/readings-csv.ts';
import { MAX_READINGS_PER_REQUEST } from '../modules/timeseries/timeseries.schemas.ts';

const USAGE = `Usage: npm run import -- --account <uuid> --file <readings.csv> [--tz <time zone>] [--batch-size <rows>] [file options]
       npm run import -- --url <server address> --account <uuid> --file <readings.csv> [--tz <time zone>] [--batch-size <rows>] [file options]
File options: [--columns <JSON map>] [--date-format <format>] [--delimiter , | ; | tab] [--decimal . | ,] [--meter <serial>]`;

const HELP = `${USAGE}

Imports interval readings of electricity meters from a CSV file, one of two ways:

  Directly into the database: PostgreSQL when DATABASE_URL is set, else the embedded database in
  DATA_DIR (default ./data). The embedded database belongs to one process at a time: while the
  server runs on it, the import stops at once, naming the server's process; import through the
  server instead.

  Through a running server, with --url: the file goes in batches to the server's readings endpoint
  (POST ${READINGS_PATH}, at most ${MAX_READINGS_PER_REQUEST} readings
  per request), which stores them at once. The access token of an OWNER or ADMIN of the account
  is read from the environment variable UMS_TOKEN (never from the command line).

The CSV file starts with a header line naming its columns: meter_sn, ts, import_kwh, and
optionally export_kwh, kvarh, power_kw, kva. --batch-size: lines per batch, 1 to
${MAX_READINGS_PER_REQUEST} (default ${DEFAULT_BATCH_SIZE}).

ts is an ISO 8601 date-time with its UTC offset (2026-11-25T08:00:00+02:00, or Z). A file of local
times without offset, as spreadsheets write them (2026-11-25 08:00, 2026-11-25T08:00:00), needs
--tz, the IANA time zone they were taken in (e.g. --tz Africa/Johannesburg); times with an offset
keep theirs. A local time that the zone's clocks skip or show twice (daylight saving changes) is
refused: write those lines with their offset.

A spreadsheet's file is read with the options the readings route takes for a CSV body:
--columns, JSON naming the header column of each field, e.g.
  '{"meter_sn":"Meter","ts":"Date","time":"Time","import_kwh":"kWh","kvarh":"kVArh"}'
  (names matched case-insensitively, trimmed; time joins a separate time column to the date
  column; other columns are left out); --meter, the meter of a file without a meter column;
--date-format: ISO (default), YYYY/MM/DD, YYYY-MM-DD, DD/MM/YYYY or MM/DD/YYYY, each optionally
  followed by HH:mm or HH:mm:ss when the date column holds the time (local times: give --tz);
--delimiter: , ; or tab (found from the header line when left out); --decimal: . (default) or ,.

Batches are stored in file order, each one whole or not at all (through a server: each request,
one meter's lines of a batch). The import stops at the first bad line or failed request: what was
stored before it stays, and the summary says how much; run the fixed file again to complete it
(readings already stored are replaced, never doubled).

Examples:
  npm run import -- --account 6f1c2d7e-8a9b-4c3d-9e2f-1a2b3c4d5e6f --file readings.csv
  npm run import -- --account 6f1c2d7e-8a9b-4c3d-9e2f-1a2b3c4d5e6f --file local-times.csv --tz Africa/Johannesburg
  npm run import -- --account 6f1c2d7e-8a9b-4c3d-9e2f-1a2b3c4d5e6f --file portal.csv --tz Africa/Johannesburg \\
    --columns '{"meter_sn":"Meter","ts":"Date","time":"Time","import_kwh":"kWh"}' --date-format YYYY/MM/DD --decimal ,

  export UMS_TOKEN=$(curl -s http://127.0.0.1:3000/api/v1/auth/login -H 'content-type: application/json' \\
    -d '{"email":"owner@example.com","password":"..."}' | jq -r .data.access_token)
  npm run import -- --url http://127.0.0.1:3000 --account 6f1c2d7e-8a9b-4c3d-9e2f-1a2b3c4d5e6f --file readings.csv`;

const argsSchema = z.object({
  url: z.url({ protocol: /^https?$/ }).optional(),
  account: uuid,
  file: z.string().min(1),
  'batch-size': z.coerce.number().int().min(1).max(MAX_READINGS_PER_REQUEST).default(DEFAULT_BATCH_SIZE),
  tz: z.string().refine(isTimeZone, 'not a time zone: an IANA name such as Africa/Johannesburg').optional(),
  meter: z.string().min(1).max(64).optional(),
  columns: z
    .string()
    .transform((text, ctx) => {
      const map = parseColumnMap(text);
      if (map === null)
        ctx.addIssue({ code: 'custom', message: `a JSON object of ${CSV_FIELDS.join(', ')} to column names` });
      return map ?? {};
    })
    .optional(),
  'date-format': z.enum(DATE_FORMATS).optional(),
  delimiter: z.enum(Object.keys(DELIMITERS) as [DelimiterName]).optional(),
  decimal: z.enum(['.', ',']).optional(),
});

interface CliDeps {
  /** Runs fn with the configured database, migrated, and closes it afterwards. */
  withDatabase<T>(fn: (db: Database) => Promise<T>): Promise<T>;
  /** The environment: UMS_TOKEN. */
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const defaultDeps: CliDeps = {
  async withDatabase(fn) {
    const db = await openDatabase(loadConfig(), 'the import command');
    try {
      await migrate(db);
      return await fn(db);
    } finally {
      await db.close();
    }
  },
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
};

function parseCommandLine(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean' },
      url: { type: 'string' },
      account: { type: 'string' },
      file: { type: 'string' },
      'batch-size': { type: 'string' },
      tz: { type: 'string' },
      meter: { type: 'string' },
      columns: { type: 'string' },
      'date-format': { type: 'string' },
      delimiter: { type: 'string' },
      decimal: { type: 'string' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
  }
  return parsed.data;
}

const counted = (summary: ImportSummary) =>
  `${summary.readings} readings (${summary.inserted} inserted, ${summary.updated} updated)`;

/** The import command: returns the exit code (0 done, 1 import failed, 2 bad arguments). */
export async function main(argv: string[], overrides: Partial<CliDeps> = {}): Promise<number> {
  const deps = { ...defaultDeps, ...overrides };
  let args: Exclude<ReturnType<typeof parseCommandLine>, 'help'>;
  try {
    const parsed = parseCommandLine(argv);
    if (parsed === 'help') {
      deps.stdout.write(`${HELP}\n`);
      return 0;
    }
    args = parsed;
  } catch (error) {
    deps.stderr.write(`${(error as Error).message}\n${USAGE}\n(npm run import -- --help explains both)\n`);
    return 2;
  }
  const token = deps.env.UMS_TOKEN;
  if (args.url && !token) {
    deps.stderr.write(
      'UMS_TOKEN is not set: with --url, the import sends the file to the server with an access token read from the ' +
        'environment variable UMS_TOKEN (log in through POST /api/v1/auth/login, then export UMS_TOKEN=<access_token>).\n',
    );
    return 2;
  }
  const bar = new SingleBar(
    { stream: deps.stderr, format: 'Importing |{bar}| {percentage}% | {readings} readings | ETA {eta_formatted}' },
    Presets.shades_classic,
  );
  const started = performance.now();
  try {
    const size = statSync(args.file).size;
    bar.start(size, 0, { readings: 0 });
    const options = {
      accountId: args.account,
      file: args.file,
      batchSize: args['batch-size'],
      timeZone: args.tz,
      meterSn: args.meter,
      columns: args.columns,
      dateFormat: args['date-format'],
      delimiter: args.delimiter,
      decimal: args.decimal,
      onProgress: ({ bytes, readings }: ImportProgress) => bar.update(bytes, { readings }),
    };
    const summary = args.url
      ? await importThroughServer({ ...options, url: args.url, token: token! })
      : await deps.withDatabase((db) => importIntoDatabase(db, options));
    bar.update(size);
    bar.stop();
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round(summary.readings / Math.max(seconds, 0.001));
    deps.stdout.write(
      `Imported ${counted(summary)} from ${args.file} in ${seconds.toFixed(1)} s (${rate} readings/s)\n`,
    );
    return 0;
  } catch (error) {
    bar.stop();
    deps.stderr.write(`Import failed: ${(error as Error).message}\n`);
    if (error instanceof MissingOffsetError || (error as Error).cause instanceof MissingOffsetError) {
      deps.stderr.write(
        "The file's times have no UTC offset: run the import again with the time zone they were taken in, " +
          'e.g. --tz Africa/Johannesburg.\n',
      );
    }
    if (error instanceof PartialImportError) {
      deps.stderr.write(
        `Stored before the failure: ${counted(error.stored)}; ${error.advice.notStored}. ` +
          `${error.advice.fix} and run the import again: readings already stored are replaced by the same values.\n`,
      );
    }
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
