import { type CsvValue, toCsv } from '../../../src/lib/csv.ts';

/** Saves a CSV table as a file the browser downloads (UTF-8 with a byte order mark, which spreadsheets read as UTF-8). */
export function downloadCsv(filename: string, header: string[], rows: CsvValue[][]): void {
  downloadBlob(filename, new Blob(['\uFEFF', toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }));
}

/** Saves what the browser holds as a file it downloads. */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A file name's safe form: letters, digits, dots and dashes. */
export const fileSafe = (text: string) => text.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '');
