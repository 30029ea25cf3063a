/**
 * How a spreadsheet's readings file is written (extensions §13.5): which of its columns hold what,
 * how its dates are written, what separates its fields and its decimals. The service's CSV body,
 * the import command and the console's upload read files with the same options.
 */

/** The fields a readings line has; `time` is a separate time-of-day column joined to the date column (`ts`). */
export const CSV_FIELDS = ['meter_sn', 'ts', 'time', 'import_kwh', 'export_kwh', 'kvarh', 'power_kw', 'kva'] as const;
export type CsvField = (typeof CSV_FIELDS)[number];

/** Which header column holds each field: `{"ts": "Date", "time": "Time", "import_kwh": "kWh"}`. */
export type ColumnMap = Partial<Record<CsvField, string>>;

const DATE_ORDERS = ['YYYY/MM/DD', 'YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY'] as const;
/** The date formats: ISO 8601 (with an offset, or local), or a date order with an optional time of day. */
export const DATE_FORMATS = [
  'ISO',
  ...DATE_ORDERS,
  ...DATE_ORDERS.map((order) => `${order} HH:mm` as const),
  ...DATE_ORDERS.map((order) => `${order} HH:mm:ss` as const),
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export const DELIMITERS = { ',': ',', ';': ';', tab: '\t' } as const;
export type DelimiterName = keyof typeof DELIMITERS;

export interface CsvDialect {
  columns?: ColumnMap | undefined;
  dateFormat?: DateFormat | undefined;
  /** Detected from the header line when absent: the most frequent of tab, ; and , (a comma on a tie). */
  delimiter?: DelimiterName | undefined;
  decimal?: '.' | ',' | undefined;
  /** The meter of every line, for a file without a meter column. */
  meterSn?: string | undefined;
}

/** The delimiter of a header line: the most frequent of tab, semicolon and comma; a comma when none or on a tie. */
export function detectDelimiter(header: string): string {
  const count = (character: string) => header.split(character).length - 1;
  const [best] = [',', ';', '\t'].sort((a, b) => count(b) - count(a));
  return count(best!) > count(',') ? best! : ',';
}

const TIME = String.raw`(\d{1,2}):(\d{2})(?::(\d{2}))?`;
const DATE_PARTS: Record<(typeof DATE_ORDERS)[number], { pattern: string; order: [number, number, number] }> = {
  'YYYY/MM/DD': { pattern: String.raw`(\d{4})/(\d{1,2})/(\d{1,2})`, order: [0, 1, 2] },
  'YYYY-MM-DD': { pattern: String.raw`(\d{4})-(\d{1,2})-(\d{1,2})`, order: [0, 1, 2] },
  'DD/MM/YYYY': { pattern: String.raw`(\d{1,2})/(\d{1,2})/(\d{4})`, order: [2, 1, 0] },
  'MM/DD/YYYY': { pattern: String.raw`(\d{1,2})/(\d{1,2})/(\d{4})`, order: [2, 0, 1] },
};

const pad = (text: string | undefined) => (text ?? '0').padStart(2, '0');

/**
 * A reader of the date column (and the time column, when there is one) as an ISO text the readings
 * parser reads: `2026/11/01` and `00:30` as `2026-11-01T00:30:00` (a local time, read in the file's
 * time zone). ISO dates pass as they are (joined to the time column by a space). Null when the text
 * is not in the format.
 */
export function dateReader(format: DateFormat = 'ISO'): (date: string, time: string | undefined) => string | null {
  if (format === 'ISO') {
    return (date, time) => (time === undefined ? date : /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date} ${time}` : null);
  }
  const [order, clock] = format.split(' ') as [(typeof DATE_ORDERS)[number], string | undefined];
  const {
    pattern,
    order: [y, m, d],
  } = DATE_PARTS[order];
  const withTime = new RegExp(`^${pattern} ${TIME}$`);
  const dateOnly = new RegExp(`^${pattern}$`);
  const timeOnly = new RegExp(`^${TIME}$`);
  return (date, time) => {
    let parts: string[] | undefined;
    if (time !== undefined) {
      const [, ...ymd] = dateOnly.exec(date) ?? [];
      const [, ...hms] = timeOnly.exec(time) ?? [];
      if (ymd.length > 0 && hms.length > 0) parts = [...ymd, ...hms];
    } else {
      const found = (clock === undefined ? dateOnly : withTime).exec(date);
      if (found) parts = found.slice(1);
    }
    if (!parts) return null;
    const [hour, minute, second] = parts.slice(3);
    return `${parts[y]}-${pad(parts[m])}-${pad(parts[d])}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
  };
}

/** A map of fields to column names written as JSON, of the fields given; null when it is not one. */
export function parseFieldMap<F extends string>(text: string, fields: readonly F[]): Partial<Record<F, string>> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const entries = Object.entries(parsed);
  const fits = ([field, column]: [string, unknown]) =>
    (fields as readonly string[]).includes(field) &&
    typeof column === 'string' &&
    column.trim() !== '' &&
    column.length <= 200;
  return entries.every(fits) ? (parsed as Partial<Record<F, string>>) : null;
}

/** A column map written as JSON (`{"ts":"Date","import_kwh":"kWh"}`); null when it is not one. */
export const parseColumnMap = (text: string): ColumnMap | null => parseFieldMap(text, CSV_FIELDS);

/** The names spreadsheets and meter portals give each field's column, lower case. */
const COMMON_NAMES: Readonly<Record<CsvField, readonly string[]>> = {
  meter_sn: ['meter_sn', 'meter', 'meter sn', 'serial', 'meter serial', 'meter number'],
  ts: ['ts', 'date', 'timestamp', 'datetime', 'date time', 'date/time'],
  time: ['time'],
  import_kwh: ['import_kwh', 'kwh', 'reading', 'import kwh', 'active energy'],
  export_kwh: ['export_kwh', 'export kwh'],
  kvarh: ['kvarh', 'reactive energy'],
  power_kw: ['power_kw', 'kw'],
  kva: ['kva'],
};

/** A column map proposed from a header's names: each field at the first column with one of its common names (Meter, Date, Time, kWh, kVArh, Reading). */
export function proposeColumns(names: readonly string[]): ColumnMap {
  const map: ColumnMap = {};
  const lower = names.map((name) => name.trim().toLowerCase());
  for (const field of CSV_FIELDS) {
    const index = lower.findIndex((name) => COMMON_NAMES[field].includes(name));
    if (index >= 0) map[field] = names[index]!.trim();
  }
  return map;
}
