import { type CsvDialect, detectDelimiter } from '../../../src/modules/timeseries/import/csv-dialect.ts';
import { CsvLines, createLineParser, parseHeader } from '../../../src/modules/timeseries/import/readings-csv.ts';

/** How many lines the preview shows. */
export const PREVIEW_LINES = 5;

/** A file's first lines: its header's column names and what follows (up to PREVIEW_LINES lines). */
export interface FileHead {
  names: string[];
  text: string;
}

/** The first lines of a file, read from its first 64 KiB. */
export async function fileHead(file: Blob): Promise<FileHead> {
  const lines = (await file.slice(0, 64 * 1024).text()).split(/\r\n|\r|\n/).slice(0, PREVIEW_LINES + 1);
  const header = (lines[0] ?? '').replace(/^\uFEFF/, '');
  const names = header.split(detectDelimiter(header)).map((name) => name.trim().replace(/^"(.*)"$/, '$1'));
  return { names, text: lines.join('\n') };
}

/** The first lines as the upload will read them with the options: each line's meter, instant and kWh; or the first problem. */
export function previewLines(
  head: FileHead,
  options: CsvDialect & { timeZone?: string | undefined },
): { rows: { line: number; meterSn: string; ts: number; importKwh: number; kvarh: number }[] } | { problem: string } {
  try {
    const [header = '', ...lines] = head.text.split('\n');
    const parser = createLineParser(parseHeader(header, options), options);
    const parsed = new CsvLines();
    lines.forEach((text, i) => {
      if (text.trim() !== '') parser.parseText(parsed, i + 2, text);
    });
    return {
      rows: Array.from({ length: parsed.length }, (_, i) => ({
        line: parsed.lines[i]!,
        meterSn: parsed.serials[i]!,
        ts: parsed.ts[i]!,
        importKwh: parsed.importKwh[i]!,
        kvarh: parsed.kvarh[i]!,
      })),
    };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}
