import type { Readable } from 'node:stream';
import { LineTooLongError, linesOf, MAX_LINE_BYTES } from './file-lines.ts';
import { CsvLines, createLineParser, ImportError, type LineParserOptions, parseHeader } from './readings-csv.ts';

const TOO_LONG = `longer than 1 MB (${MAX_LINE_BYTES} bytes); a line of readings is far shorter: is this the right file?`;

/** Parsed lines of a file, in file order; failure: the bad line that ends the file's batches. */
interface CsvBatch {
  lines: CsvLines;
  failure?: Error;
}

/**
 * The data lines of a readings CSV file in batches of about batchSize lines, in file order: a
 * batch ends where a meter's lines end, when that keeps at least half of them. At a bad line the
 * last batch comes with the lines before it and the failure, and nothing follows. A bad header or
 * an empty file throws. options: how lines are read (their time zone).
 */
export async function* csvBatches(
  input: Readable,
  batchSize: number,
  options: LineParserOptions = {},
): AsyncGenerator<CsvBatch> {
  let parser: ReturnType<typeof createLineParser> | undefined;
  let batch = new CsvLines();
  let lineNumber = 0;
  try {
    for await (const { bytes, bounds } of linesOf(input)) {
      for (let k = 0; k < bounds.length; k += 2) {
        lineNumber++;
        if (!parser) {
          parser = createLineParser(parseHeader(bytes.toString('utf8', bounds[k], bounds[k + 1]), options), options);
          continue;
        }
        try {
          parser.parseBytes(batch, lineNumber, bytes, bounds[k]!, bounds[k + 1]!);
        } catch (error) {
          yield { lines: batch, failure: error as Error };
          return;
        }
        if (batch.length >= batchSize) {
          const next = batch.splitOffLastMeter(batchSize / 2);
          yield { lines: batch };
          batch = next;
        }
      }
    }
  } catch (error) {
    if (!(error instanceof LineTooLongError)) throw error;
    yield { lines: batch, failure: new ImportError(error.line, TOO_LONG) };
    return;
  }
  if (!parser) throw new ImportError(1, 'the file is empty (a header line is required)');
  if (batch.length > 0) yield { lines: batch };
}
