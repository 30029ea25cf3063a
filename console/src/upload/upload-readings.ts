import type { CsvDialect } from '../../../src/modules/timeseries/import/csv-dialect.ts';
import { type CsvLines, MissingOffsetError } from '../../../src/modules/timeseries/import/readings-csv.ts';
import { untilNotBusy } from '../../../src/modules/timeseries/import/until-not-busy.ts';
import { csvTextBatches } from './csv-text-batches.ts';

/**
 * Sends a readings CSV file to the readings endpoint from the browser, as the import command does
 * with --url (src/modules/timeseries/import/import-through-server.ts): batches in file order, one
 * request per meter of a batch, one request at a time; it stops at the first bad line or refused
 * request, and reports both with the command's words.
 */

export const READINGS_PATH = '/api/v1/timeseries/electricity/readings';
/** Lines per batch: small enough for a smooth progress bar, large enough for few requests. */
const UPLOAD_BATCH_SIZE = 5_000;

interface UploadSummary {
  readings: number;
  inserted: number;
  updated: number;
}

export interface UploadProgress {
  bytes: number;
  total: number;
  readings: number;
}

interface UploadOptions {
  accountId: string;
  file: Blob;
  batchSize?: number;
  /** The IANA time zone of timestamps written without a UTC offset (refused without one). */
  timeZone?: string | undefined;
  /** How the file is written: its column map, date format, delimiter, decimal separator, meter. */
  dialect?: CsvDialect;
  /** Sends one request body (JSON) to the readings endpoint. */
  post: (body: string) => Promise<Response>;
  onProgress?: (progress: UploadProgress) => void;
}

/** What failed, what was stored before it, and what to do (the command's "Stored before the failure"). */
class UploadFailure extends Error {
  constructor(
    message: string,
    readonly stored: UploadSummary,
    readonly notStored: string,
    readonly fix: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'UploadFailure';
  }
}

interface MeterRows {
  meterSn: string;
  firstLine: number;
  rows: number[];
}

/** The batch as one request per meter, in order of first line; the last line for a (meter, ts) wins. */
function meterRequests(batch: CsvLines): MeterRows[] {
  const meters = new Map<string, { firstLine: number; rowAt: Map<number, number> }>();
  for (let i = 0; i < batch.length; i++) {
    const serial = batch.serials[i]!;
    const meter = meters.get(serial) ?? { firstLine: batch.lines[i]!, rowAt: new Map() };
    meters.set(serial, meter);
    meter.rowAt.set(batch.ts[i]!, i);
  }
  return [...meters].map(([meterSn, { firstLine, rowAt }]) => ({ meterSn, firstLine, rows: [...rowAt.values()] }));
}

const OPTIONAL_VALUES = { export_kwh: 'exportKwh', kvarh: 'kvarh', power_kw: 'powerKw', kva: 'kva' } as const;

function requestBody(batch: CsvLines, accountId: string, meter: MeterRows): string {
  const readings = meter.rows.map((i) => {
    const reading: Record<string, string | number> = {
      ts: new Date(batch.ts[i]!).toISOString(),
      import_kwh: batch.importKwh[i]!,
    };
    for (const [field, column] of Object.entries(OPTIONAL_VALUES)) {
      if (!Number.isNaN(batch[column][i]!)) reading[field] = batch[column][i]!;
    }
    return reading;
  });
  return JSON.stringify({ account_id: accountId, meter_sn: meter.meterSn, readings });
}

const REQUEST_NOT_STORED = 'the failed request was not stored';
const ROW = /readings\.(\d+)\./g;

/** A refused request, naming the file's lines of the rows the answer names. */
async function refusal(response: Response, batch: CsvLines, meter: MeterRows): Promise<Error & { fix: string }> {
  const text = await response.text();
  let envelope: { message?: unknown; error?: unknown };
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = { error: text.slice(0, 200) };
  }
  const message = typeof envelope.message === 'string' ? ` (${envelope.message})` : '';
  const answered = `the server answered ${response.status}${message}`;
  const error = String(envelope.error ?? '');
  const lineOf = (row: string) => batch.lines[meter.rows[Number(row)]!];
  const named = error.replace(ROW, (_, row: string) => `line ${lineOf(row)}: `);
  const failure = /readings\.\d+\./.test(error)
    ? new Error(`${named} (${answered})`)
    : new Error(`line ${meter.firstLine} (meter ${meter.meterSn}): ${answered}: ${error}`);
  return Object.assign(failure, {
    fix: [400, 403, 404].includes(response.status) ? 'Fix the file' : 'Fix the problem',
  });
}

async function send(options: UploadOptions, body: string, meter: MeterRows): Promise<Response> {
  try {
    return await untilNotBusy(() => options.post(body));
  } catch (error) {
    const why = `no answer from the server: ${(error as Error).message}`;
    throw Object.assign(new Error(`line ${meter.firstLine} (meter ${meter.meterSn}): ${why}`), {
      fix: 'Fix the problem',
    });
  }
}

export async function uploadReadings(options: UploadOptions): Promise<UploadSummary> {
  const summary: UploadSummary = { readings: 0, inserted: 0, updated: 0 };
  const total = options.file.size;
  try {
    for await (const { lines, bytesRead, failure } of csvTextBatches(
      options.file,
      options.batchSize ?? UPLOAD_BATCH_SIZE,
      { timeZone: options.timeZone, ...options.dialect },
    )) {
      if (failure) throw failure;
      for (const meter of meterRequests(lines)) {
        const response = await send(options, requestBody(lines, options.accountId, meter), meter);
        if (!response.ok) throw await refusal(response, lines, meter);
        const counts = ((await response.json()) as { data: { inserted: number; updated: number } }).data;
        summary.inserted += counts.inserted;
        summary.updated += counts.updated;
        summary.readings += counts.inserted + counts.updated;
        options.onProgress?.({ bytes: bytesRead, total, readings: summary.readings });
      }
    }
    options.onProgress?.({ bytes: total, total, readings: summary.readings });
    return summary;
  } catch (error) {
    const { message, fix } = error as Error & { fix?: string };
    throw fix
      ? new UploadFailure(message, { ...summary }, REQUEST_NOT_STORED, fix)
      : new UploadFailure(message, { ...summary }, 'the batch with the failing line was not stored', 'Fix the file', {
          cause: error,
        });
  }
}

const counted = (summary: UploadSummary) =>
  `${summary.readings} readings (${summary.inserted} inserted, ${summary.updated} updated)`;

/** The import command's summary of a finished import. */
export function successReport(summary: UploadSummary, fileName: string): string {
  return `Imported ${counted(summary)} from ${fileName}`;
}

/** The import command's report of a failure: what failed, and what was stored before it. */
export function failureReport(error: unknown): string[] {
  const message = error instanceof Error ? error.message : String(error);
  const report = [`Import failed: ${message}`];
  if (error instanceof UploadFailure && error.cause instanceof MissingOffsetError) {
    report.push("The file's times have no UTC offset: choose the time zone they were taken in, and upload it again.");
  }
  if (error instanceof UploadFailure && error.stored.readings > 0) {
    report.push(
      `Stored before the failure: ${counted(error.stored)}; ${error.notStored}. ` +
        `${error.fix} and run the import again: readings already stored are replaced by the same values.`,
    );
  }
  return report;
}
