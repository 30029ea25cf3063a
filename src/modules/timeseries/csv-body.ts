import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../../http/errors.ts';
import { yieldToEventLoop } from '../../http/event-loop.ts';
import { csvBatches } from './import/csv-batches.ts';
import { CsvLines, ImportError, type LineParserOptions } from './import/readings-csv.ts';
import type { CsvReadingsQuery } from './timeseries.schemas.ts';

/** Lines parsed between two turns of the event loop: a few milliseconds of work. */
const LINES_PER_TURN = 5000;

/** A text/csv body of a readings route, kept as bytes until the service reads it with its query's options. */
export class CsvBody {
  constructor(readonly bytes: Buffer) {}
}

/** The scope's routes take text/csv bodies, kept as bytes (CsvBody) until a route reads them with its query's options. */
export function acceptCsvBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser('text/csv', { parseAs: 'buffer' }, (_req: FastifyRequest, body: Buffer) =>
    Promise.resolve(new CsvBody(body)),
  );
}

/** Each meter's lines of a file, in file order. */
export type LinesByMeter = Map<string, CsvLines>;

/** Adds the batch's lines to their meters' lines; a meter's ts read twice is refused, naming both lines. */
function addByMeter(byMeter: LinesByMeter, seen: Map<string, number>, batch: CsvLines) {
  const values = [0, 0, 0, 0, 0];
  for (let i = 0; i < batch.length; i++) {
    const serial = batch.serials[i]!;
    const key = `${serial}|${batch.ts[i]}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new ImportError(batch.lines[i]!, `ts: meter ${serial} has a reading of this time on line ${earlier} too`);
    }
    seen.set(key, batch.lines[i]!);
    const lines = byMeter.get(serial) ?? new CsvLines();
    byMeter.set(serial, lines);
    values[0] = batch.importKwh[i]!;
    values[1] = batch.exportKwh[i]!;
    values[2] = batch.kvarh[i]!;
    values[3] = batch.powerKw[i]!;
    values[4] = batch.kva[i]!;
    lines.push(batch.lines[i]!, serial, batch.ts[i]!, values);
  }
}

/**
 * A readings CSV body read as the import command reads a file (import/csv-batches.ts, the same
 * options), in steps of LINES_PER_TURN lines with a turn of the event loop between them (the
 * organization's, `key`): every line or none; a bad line is 400 naming its line and column.
 */
export async function readCsvBody(bytes: Buffer, options: LineParserOptions, key: string): Promise<LinesByMeter> {
  const byMeter: LinesByMeter = new Map();
  const seen = new Map<string, number>();
  try {
    for await (const { lines, failure } of csvBatches(Readable.from([bytes]), LINES_PER_TURN, options)) {
      if (failure) throw failure;
      addByMeter(byMeter, seen, lines);
      await yieldToEventLoop(key);
    }
  } catch (error) {
    if (error instanceof ImportError) throw badRequest(error.message);
    throw error;
  }
  if (byMeter.size === 0) throw badRequest('line 2: the file has no readings (a header and at least one line)');
  return byMeter;
}

/** The reader's options of a CSV body's query. */
export const csvOptions = (query: Omit<CsvReadingsQuery, 'account_id'>): LineParserOptions => ({
  timeZone: query.tz,
  columns: query.columns,
  dateFormat: query.date_format,
  delimiter: query.delimiter,
  decimal: query.decimal,
  meterSn: query.meter_sn,
});
