import {
  type ColumnMap,
  type CsvDialect,
  type CsvField,
  DATE_FORMATS,
  type DateFormat,
  type DelimiterName,
} from '../../../src/modules/timeseries/import/csv-dialect.ts';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { type FileHead, previewLines } from './csv-preview.ts';

/** The fields one maps a column to, in words. */
const FIELD_LABELS: [CsvField, string][] = [
  ['meter_sn', 'Meter serial'],
  ['ts', 'Date (or date and time)'],
  ['time', 'Time of day (a separate column)'],
  ['import_kwh', 'Imported kWh'],
  ['export_kwh', 'Exported kWh'],
  ['kvarh', 'Reactive energy (kvarh)'],
];

const DELIMITER_LABELS: [DelimiterName | '', string][] = [
  ['', 'Found from the header'],
  [',', 'Comma'],
  [';', 'Semicolon'],
  ['tab', 'Tab'],
];

/** The options of a file as the form holds them. */
export interface FileOptions {
  columns: ColumnMap;
  dateFormat: DateFormat;
  delimiter: DelimiterName | '';
  decimal: '.' | ',';
  meterSn: string;
}

/** The options as the reader takes them. */
export const dialectOf = (options: FileOptions): CsvDialect => ({
  columns: options.columns,
  dateFormat: options.dateFormat,
  delimiter: options.delimiter === '' ? undefined : options.delimiter,
  decimal: options.decimal,
  meterSn: options.meterSn.trim() === '' ? undefined : options.meterSn.trim(),
});

/** Which column holds what, how dates and numbers are written, and the first five lines as they will be read. */
export function ColumnMapFields({
  head,
  options,
  timeZone,
  onChange,
  disabled,
}: {
  head: FileHead;
  options: FileOptions;
  timeZone: string | undefined;
  onChange: (options: FileOptions) => void;
  disabled: boolean;
}) {
  const set = (change: Partial<FileOptions>) => onChange({ ...options, ...change });
  const setColumn = (field: CsvField, column: string) => {
    const columns = { ...options.columns };
    if (column === '') delete columns[field];
    else columns[field] = column;
    set({ columns });
  };
  const preview = previewLines(head, { ...dialectOf(options), timeZone });
  return (
    <fieldset className="column-map" disabled={disabled} data-testid="column-map">
      <legend>The file's columns</legend>
      <div className="row">
        {FIELD_LABELS.map(([field, label]) => (
          <div key={field}>
            <label htmlFor={`column-${field}`}>{label}</label>
            <select
              id={`column-${field}`}
              value={options.columns[field] ?? ''}
              onChange={(e) => setColumn(field, e.target.value)}
            >
              <option value="">None</option>
              {head.names.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      <div className="row">
        <div>
          <label htmlFor="file-date-format">Dates written as</label>
          <select
            id="file-date-format"
            value={options.dateFormat}
            onChange={(e) => set({ dateFormat: e.target.value as DateFormat })}
          >
            {DATE_FORMATS.map((format) => (
              <option key={format} value={format}>
                {format === 'ISO' ? 'ISO 8601 (2026-11-25T08:00)' : format}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="file-delimiter">Fields separated by</label>
          <select
            id="file-delimiter"
            value={options.delimiter}
            onChange={(e) => set({ delimiter: e.target.value as FileOptions['delimiter'] })}
          >
            {DELIMITER_LABELS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="file-decimal">Decimals after</label>
          <select
            id="file-decimal"
            value={options.decimal}
            onChange={(e) => set({ decimal: e.target.value as FileOptions['decimal'] })}
          >
            <option value=".">a point (1.5)</option>
            <option value=",">a comma (1,5)</option>
          </select>
        </div>
        {options.columns.meter_sn === undefined && (
          <div>
            <label htmlFor="file-meter">Meter of every line</label>
            <input id="file-meter" value={options.meterSn} onChange={(e) => set({ meterSn: e.target.value })} />
          </div>
        )}
      </div>
      <h2>The first lines as they will be read</h2>
      {'problem' in preview ? (
        <p className="error" data-testid="preview-problem">
          {preview.problem}
        </p>
      ) : (
        <table data-testid="upload-preview">
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Meter</th>
              <th scope="col">Interval starts</th>
              <th scope="col" className="number">
                kWh
              </th>
              <th scope="col" className="number">
                kvarh
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <tr key={row.line}>
                <td>{row.line}</td>
                <td>{row.meterSn}</td>
                <td>{formatDateTime(row.ts, timeZone ?? 'UTC')}</td>
                <td className="number">{formatNumber(row.importKwh, 3)}</td>
                <td className="number">{Number.isNaN(row.kvarh) ? '–' : formatNumber(row.kvarh, 3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </fieldset>
  );
}
