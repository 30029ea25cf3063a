import { createReadStream } from 'node:fs';
import { csvBatches } from './csv-batches.ts';
import {
  DEFAULT_BATCH_SIZE,
  type FailureAdvice,
  type ImportOptions,
  type ImportSummary,
  PartialImportError,
} from './csv-import.ts';
import type { CsvLines } from './readings-csv.ts';
import { untilNotBusy } from './until-not-busy.ts';

export const READINGS_PATH = '/api/v1/timeseries/electricity/readings';

interface SendOptions extends ImportOptions {
  /** The server's address, e.g. http://127.0.0.1:3000. */
  url: string;
  /** An access token of an OWNER or ADMIN of the account. */
  token: string;
}

/** A request that failed: its answer (or why there was none), naming its lines. */
class RequestFailure extends Error {
  constructor(
    message: string,
    readonly advice: FailureAdvice,
  ) {
    super(message);
    this.name = 'RequestFailure';
  }
}

/** One meter's readings of a batch: the body of one request. */
interface MeterReadings {
  meterSn: string;
  /** The meter's first line in the batch. */
  firstLine: number;
  /** The readings: their rows in the batch, and their lines in the file. */
  rows: number[];
  lines: number[];
}

/**
 * The batch as one request per meter, in order of their first line. The last line for a
 * (meter, ts) wins, as in the database import (a request may not hold a ts twice).
 */
function byMeter(batch: CsvLines): MeterReadings[] {
  const meters = new Map<string, { firstLine: number; rowAt: Map<number, number> }>();
  for (let i = 0; i < batch.length; i++) {
    const serial = batch.serials[i]!;
    let meter = meters.get(serial);
    if (!meter) {
      meter = { firstLine: batch.lines[i]!, rowAt: new Map() };
      meters.set(serial, meter);
    }
    meter.rowAt.set(batch.ts[i]!, i);
  }
  return [...meters].map(([meterSn, { firstLine, rowAt }]) => {
    const rows = [...rowAt.values()];
    return { meterSn, firstLine, rows, lines: rows.map((i) => batch.lines[i]!) };
  });
}

const OPTIONAL = [
  ['export_kwh', 'exportKwh'],
  ['kvarh', 'kvarh'],
  ['power_kw', 'powerKw'],
  ['kva', 'kva'],
] as const;

function bodyOf(batch: CsvLines, accountId: string, meter: MeterReadings): string {
  const readings = meter.rows.map((i) => {
    const reading: Record<string, string | number> = {
      ts: new Date(batch.ts[i]!).toISOString(),
      import_kwh: batch.importKwh[i]!,
    };
    for (const [name, column] of OPTIONAL) {
      const value = batch[column][i]!;
      if (!Number.isNaN(value)) reading[name] = value;
    }
    return reading;
  });
  return JSON.stringify({ account_id: accountId, meter_sn: meter.meterSn, readings });
}

// The most of a server's error text a message repeats.
const MAX_QUOTED_ANSWER = 1000;

// Answers about a line of the file: fixing the file is what to do.
const ABOUT_THE_FILE = new Set([400, 403, 404]);

/** The failure of an answer other than 2xx, naming the lines of the rows it names (readings.N). */
function answerFailure(status: number, text: string, meter: MeterReadings): RequestFailure {
  let envelope: { message?: unknown; error?: unknown } = {};
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = { error: text };
  }
  const answered = `the server answered ${status}${typeof envelope.message === 'string' ? ` (${envelope.message})` : ''}`;
  const whole = String(envelope.error ?? '');
  const error =
    whole.length <= MAX_QUOTED_ANSWER ? whole : `${whole.slice(0, MAX_QUOTED_ANSWER)}… (${whole.length} characters)`;
  const rows = [...error.matchAll(/readings\.(\d+)\./g)].map((match) => meter.lines[Number(match[1])]);
  const named = error.replace(/readings\.(\d+)\./g, (_, row: string) => `line ${meter.lines[Number(row)]}: `);
  const message =
    rows[0] !== undefined
      ? `${named} (${answered})`
      : `line ${meter.firstLine} (meter ${meter.meterSn}): ${answered}: ${error}`;
  return new RequestFailure(message, {
    notStored: 'the failed request was not stored',
    fix: ABOUT_THE_FILE.has(status) ? 'Fix the file' : 'Fix the problem',
  });
}

async function post(options: SendOptions, body: string, meter: MeterReadings) {
  let response: Response;
  let text: string;
  try {
    response = await untilNotBusy(() =>
      fetch(`${options.url.replace(/\/+$/, '')}${READINGS_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body,
      }),
    );
    text = await response.text();
  } catch (error) {
    const cause = (error as Error).cause as Error | undefined;
    throw new RequestFailure(
      `line ${meter.firstLine} (meter ${meter.meterSn}): no answer from the server at ${options.url}: ${cause?.message ?? (error as Error).message}`,
      { notStored: 'the failed request was not stored', fix: 'Fix the problem' },
    );
  }
  if (!response.ok) throw answerFailure(response.status, text, meter);
  return (JSON.parse(text) as { data: { inserted: number; updated: number } }).data;
}

/**
 * Sends a readings CSV file to a running server through its readings endpoint: the file's batches
 * in file order (csvBatches, as the database import reads them), each as one request per meter,
 * one request at a time. Each request is stored whole or not at all; at a bad line or a failed
 * request the import stops, and what was stored before it stays (PartialImportError): running
 * the file again completes it.
 */
export async function importThroughServer(options: SendOptions): Promise<ImportSummary> {
  const summary: ImportSummary = { readings: 0, inserted: 0, updated: 0 };
  const input = createReadStream(options.file);
  try {
    for await (const { lines, failure } of csvBatches(input, options.batchSize ?? DEFAULT_BATCH_SIZE, options)) {
      if (failure) throw failure;
      for (const meter of byMeter(lines)) {
        const counts = await post(options, bodyOf(lines, options.accountId, meter), meter);
        summary.inserted += counts.inserted;
        summary.updated += counts.updated;
        summary.readings += counts.inserted + counts.updated;
        options.onProgress?.({ bytes: input.bytesRead, readings: summary.readings });
      }
    }
    return summary;
  } catch (error) {
    if (summary.readings === 0) throw error;
    const advice = error instanceof RequestFailure ? error.advice : undefined;
    throw new PartialImportError(error as Error, { ...summary }, advice);
  } finally {
    input.destroy();
  }
}
