import { statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Presets, SingleBar } from 'cli-progress';
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import type { Database } from '../db/types.ts';
import { MAX_READINGS_PER_REQUEST } from '../modules/timeseries/timeseries.schemas.ts';
import { DEFAULT_BATCH_SIZE, type ImportSummary, importReadings, PartialImportError } from './readings-import.ts';

const USAGE = `Usage: npm run import -- --account <uuid> --file <readings.csv> [--batch-size <rows, default ${DEFAULT_BATCH_SIZE}>]
CSV columns (header line first): meter_sn, ts, import_kwh, and optionally export_kwh, kvarh, power_kw, kva.
Each batch of lines is stored in one transaction. The import stops at the first bad line: earlier batches stay
stored, the batch holding the line does not; run the fixed file again to complete it (readings are replaced).`;

const argsSchema = z.object({
  account: z.uuid(),
  file: z.string().min(1),
  'batch-size': z.coerce.number().int().min(1).max(MAX_READINGS_PER_REQUEST).default(DEFAULT_BATCH_SIZE),
});

export interface CliDeps {
  /** Runs fn with the configured database, migrated, and closes it afterwards. */
  withDatabase<T>(fn: (db: Database) => Promise<T>): Promise<T>;
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
  stdout: process.stdout,
  stderr: process.stderr,
};

function parseCommandLine(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: { account: { type: 'string' }, file: { type: 'string' }, 'batch-size': { type: 'string' } },
    strict: true,
  });
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
  let args: ReturnType<typeof parseCommandLine>;
  try {
    args = parseCommandLine(argv);
  } catch (error) {
    deps.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
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
    const summary = await deps.withDatabase((db) =>
      importReadings(db, {
        accountId: args.account,
        file: args.file,
        batchSize: args['batch-size'],
        onProgress: ({ bytes, readings }) => bar.update(bytes, { readings }),
      }),
    );
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
    if (error instanceof PartialImportError) {
      deps.stderr.write(
        `Stored before the failure: ${counted(error.stored)}; the batch with the failing line was not stored. ` +
          'Fix the file and run the import again: readings already stored are replaced by the same values.\n',
      );
    }
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
