import {
  CsvLines,
  createLineParser,
  ImportError,
  type LineParserOptions,
  parseHeader,
} from '../../../src/modules/timeseries/import/readings-csv.ts';

/**
 * A readings CSV file read in the browser, in batches of lines as the import command reads them
 * (src/modules/timeseries/import/csv-batches.ts): the same reader of header and lines
 * (readings-csv.ts, shared), so the same errors name the same lines.
 */

interface TextBatch {
  lines: CsvLines;
  /** Bytes of the file read when the batch was complete. */
  bytesRead: number;
  failure?: Error;
}

/** Lines ended by \n, \r\n or \r; the rest is a line without its end yet (a \r at the very end may be half a \r\n). */
function endedLines(text: string, atEnd: boolean): { lines: string[]; rest: string } {
  const cut = atEnd ? text.length : text.endsWith('\r') ? text.length - 1 : text.length;
  const lines = text.slice(0, cut).split(/\r\n|\r|\n/);
  const rest = lines.pop()! + text.slice(cut);
  if (atEnd && rest !== '') return { lines: [...lines, rest], rest: '' };
  return { lines, rest };
}

async function* linesOfFile(file: Blob): AsyncGenerator<{ lines: string[]; bytesRead: number }> {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder();
  let rest = '';
  let bytesRead = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytesRead += value.byteLength;
    const found = endedLines(rest + decoder.decode(value, { stream: true }), false);
    rest = found.rest;
    if (found.lines.length > 0) yield { lines: found.lines, bytesRead };
  }
  const last = endedLines(rest + decoder.decode(), true);
  if (last.lines.length > 0) yield { lines: last.lines, bytesRead };
}

/**
 * The data lines in batches of about batchSize, in file order, a batch ending where a meter's
 * lines end when that keeps at least half of it. At a bad line the last batch comes with the
 * lines before it and the failure. A bad header or an empty file throws. options: how lines are
 * read (their time zone).
 */
export async function* csvTextBatches(
  file: Blob,
  batchSize: number,
  options: LineParserOptions = {},
): AsyncGenerator<TextBatch> {
  let parser: ReturnType<typeof createLineParser> | undefined;
  let batch = new CsvLines();
  let lineNumber = 0;
  let bytesRead = 0;
  for await (const chunk of linesOfFile(file)) {
    bytesRead = chunk.bytesRead;
    for (const text of chunk.lines) {
      lineNumber++;
      if (!parser) {
        parser = createLineParser(parseHeader(text, options), options);
        continue;
      }
      try {
        if (text.trim() !== '') parser.parseText(batch, lineNumber, text);
      } catch (error) {
        yield { lines: batch, bytesRead, failure: error as Error };
        return;
      }
      if (batch.length >= batchSize) {
        const next = batch.splitOffLastMeter(batchSize / 2);
        yield { lines: batch, bytesRead };
        batch = next;
      }
    }
  }
  if (!parser) throw new ImportError(1, 'the file is empty (a header line is required)');
  if (batch.length > 0) yield { lines: batch, bytesRead };
}
