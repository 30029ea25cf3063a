import { DATE_TIME_PATTERN, isWithinInstantRange } from '../../../http/fields.ts';
import { MAX_READING_VALUE, ReadingColumns, resized } from '../readings.ts';
import { timestamp } from '../timeseries.schemas.ts';
import { decimalAt, isoTimeAt } from './csv-bytes.ts';
import { type CsvDialect, type CsvField, DELIMITERS, dateReader, detectDelimiter } from './csv-dialect.ts';
import { isLocalDateTime, LocalTimeError, localTimeReader } from './local-times.ts';

/** A problem with the file, reported with the line it is on (1 = the header). */
export class ImportError extends Error {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(`line ${line}: ${detail}`);
    this.name = 'ImportError';
  }
}

const QUOTED_CHARACTERS = 40;

/** A field as an error message shows it: in quotes, only its start when long (and its length). */
function quoted(text: string): string {
  if (text.length <= QUOTED_CHARACTERS) return `"${text}"`;
  return `"${text.slice(0, QUOTED_CHARACTERS)}…" (${text.length} characters)`;
}

const REQUIRED = ['meter_sn', 'ts', 'import_kwh'] as const;
const OPTIONAL = ['export_kwh', 'kvarh', 'power_kw', 'kva'] as const;
type Column = (typeof REQUIRED)[number] | (typeof OPTIONAL)[number];
const KNOWN = new Set<string>([...REQUIRED, ...OPTIONAL]);

/** A file's header as read: where each field is, how many fields a line has, what separates them, each field's column name. */
export interface CsvHeader {
  at: Map<CsvField, number>;
  size: number;
  delimiter: string;
  names: Map<CsvField, string>;
}

/**
 * Parsed data lines in columns, one entry per line up to length: its number, its meter's serial
 * and its values (NaN where an optional column is absent or empty).
 */
export class CsvLines extends ReadingColumns {
  readonly serials: string[] = [];
  lines: Float64Array;

  constructor(capacity = 1024) {
    super(capacity);
    this.lines = new Float64Array(capacity);
  }

  /** Appends a line: values are import_kwh, export_kwh, kvarh, power_kw, kva. */
  push(line: number, serial: string, ts: number, values: readonly number[]): void {
    const i = this.nextIndex();
    this.serials.push(serial);
    this.lines[i] = line;
    this.ts[i] = ts;
    this.importKwh[i] = values[0]!;
    this.exportKwh[i] = values[1]!;
    this.kvarh[i] = values[2]!;
    this.powerKw[i] = values[3]!;
    this.kva[i] = values[4]!;
  }

  /**
   * Moves the last meter's run of lines (the lines at the end with its serial) to a new CsvLines,
   * provided at least minimumKept lines stay and the meter has no earlier line here: a file
   * ordered by meter is then cut into batches that share no meter. Otherwise nothing moves (an
   * empty CsvLines comes back).
   */
  splitOffLastMeter(minimumKept: number): CsvLines {
    const rest = new CsvLines(this.ts.length);
    const last = this.serials.at(-1);
    let start = this.length - 1;
    while (start > 0 && this.serials[start - 1] === last) start--;
    if (start < minimumKept || this.serials.lastIndexOf(last!, start - 1) >= 0) return rest;
    for (const column of COLUMNS) rest[column].set(this[column].subarray(start, this.length));
    for (const serial of this.serials.splice(start)) rest.serials.push(serial);
    rest.length = this.length - start;
    this.length = start;
    return rest;
  }

  protected override resize(capacity: number): void {
    super.resize(capacity);
    this.lines = resized(this.lines, capacity);
  }
}

const COLUMNS = ['lines', 'ts', 'importKwh', 'exportKwh', 'kvarh', 'powerKw', 'kva'] as const;

// Plain decimal notation, optionally with an exponent; no sign (values are >= 0), no hex.
const NON_NEGATIVE_NUMBER = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
const isPadding = (code: number) => code === SPACE || code === TAB || code === QUOTE;

/** Fields separated by the delimiter, each trimmed and unwrapped from double quotes (a field cannot hold the delimiter). */
export function fields(text: string, delimiter = ','): string[] {
  const values = text.split(delimiter);
  for (let i = 0; i < values.length; i++) {
    const raw = values[i]!;
    // Most fields have nothing to clean: a look at both ends decides.
    if (raw.length === 0 || !(isPadding(raw.charCodeAt(0)) || isPadding(raw.charCodeAt(raw.length - 1)))) continue;
    const field = raw.trim();
    values[i] = field.startsWith('"') ? field.replace(/^"(.*)"$/, '$1') : field;
  }
  return values;
}

/** A local date-time with its seconds (2026-11-25T08:00 → 2026-11-25T08:00:00). */
const withSeconds = (text: string) => (text.length === 16 ? `${text}:00` : text);

/** A timestamp without a UTC offset, in a file read without a time zone. */
export class MissingOffsetError extends ImportError {
  constructor(line: number, text: string) {
    super(
      line,
      `ts: "${text}" has no UTC offset: name the file's time zone (e.g. Africa/Johannesburg), ` +
        `or write the offset (e.g. ${withSeconds(text.replace(' ', 'T'))}+02:00)`,
    );
    this.name = 'MissingOffsetError';
  }
}

/** Reads a local time (no offset) as an instant, or throws (local-times.ts). */
type LocalTimes = (text: string) => number;

/**
 * The same as the timestamp schema, without its cost on the valid texts that make up a file; a
 * local time without offset is read in the file's time zone (localTimes), refused without one.
 */
function parseTimestamp(
  line: number,
  text: string | undefined,
  localTimes: LocalTimes | undefined,
  column = 'ts',
): number {
  if (text !== undefined && DATE_TIME_PATTERN.test(text)) {
    const date = new Date(text);
    if (isWithinInstantRange(date)) return date.getTime();
  }
  if (text !== undefined && isLocalDateTime(text)) {
    if (!localTimes) throw new MissingOffsetError(line, text);
    try {
      const time = localTimes(text);
      if (isWithinInstantRange(time)) return time;
    } catch (error) {
      if (error instanceof LocalTimeError) throw new ImportError(line, `${column}: ${error.message}`);
      throw error;
    }
  }
  const ts = timestamp.safeParse(text);
  if (!ts.success) {
    throw new ImportError(line, `${column}: ${ts.error.issues[0]?.message}, found ${quoted(String(text))}`);
  }
  return ts.data.getTime();
}

const TIMESTAMP_CACHE_SIZE = 100_000;

/**
 * parseTimestamp remembering the times of the texts it has read: a file repeats the same
 * timestamps for every meter, and a lookup costs a fraction of a parse.
 */
function cachedTimestamps(localTimes: LocalTimes | undefined, column: string) {
  const times = new Map<string, number>();
  return (line: number, text: string | undefined): number => {
    const cached = text === undefined ? undefined : times.get(text);
    if (cached !== undefined) return cached;
    const time = parseTimestamp(line, text, localTimes, column);
    if (times.size >= TIMESTAMP_CACHE_SIZE) times.clear();
    times.set(text!, time);
    return time;
  };
}

/**
 * The position of each field, from the header line. Without a column map: the columns named as the
 * fields, meter_sn (unless the dialect names the meter), ts, import_kwh required, the others
 * optional, no other. With one: each mapped field at its column (names matched case-insensitively,
 * trimmed), the others at a column of their own name if there is one; other columns are left out.
 */
export function parseHeader(text: string, dialect: CsvDialect = {}): CsvHeader {
  const header = text.replace(/^\uFEFF/, '');
  if (header.trim() === '') throw new ImportError(1, 'the first line must be the header');
  const delimiter = dialect.delimiter === undefined ? detectDelimiter(header) : DELIMITERS[dialect.delimiter];
  const names = fields(header, delimiter);
  const lower = names.map((name) => name.toLowerCase());
  const repeated = lower.find((name, index) => name !== '' && lower.indexOf(name) !== index);
  if (repeated !== undefined) throw new ImportError(1, `column ${quoted(repeated)} appears twice`);
  const at = new Map<CsvField, number>();
  const map = dialect.columns;
  if (map === undefined) {
    const unknown = lower.find((name) => !KNOWN.has(name));
    if (unknown !== undefined)
      throw new ImportError(1, `unknown column ${quoted(unknown)} (expected ${[...KNOWN].join(', ')})`);
    for (const [index, name] of lower.entries()) at.set(name as Column, index);
  } else {
    for (const [field, column] of Object.entries(map) as [CsvField, string][]) {
      const index = lower.indexOf(column.trim().toLowerCase());
      if (index < 0)
        throw new ImportError(1, `columns: no column ${quoted(column)} in the header (${names.join(', ')})`);
      at.set(field, index);
    }
    for (const field of KNOWN)
      if (!at.has(field as Column) && lower.includes(field)) at.set(field as Column, lower.indexOf(field));
  }
  const required = dialect.meterSn === undefined ? REQUIRED : REQUIRED.filter((name) => name !== 'meter_sn');
  const missing = required.find((name) => !at.has(name));
  if (missing) throw new ImportError(1, `missing column "${missing}"`);
  return { at, size: names.length, delimiter, names: new Map([...at].map(([field, index]) => [field, names[index]!])) };
}

/** The value of an optional column, NaN when absent or empty. */
function parseNumber(line: number, column: string, text: string | undefined, decimalComma = false): number {
  if (text === undefined || text === '') return Number.NaN;
  const plain = decimalComma ? text.replace(',', '.') : text;
  const value = Number(plain);
  if (!NON_NEGATIVE_NUMBER.test(plain) || !(value <= MAX_READING_VALUE)) {
    throw new ImportError(line, `${column}: must be a number from 0 to ${MAX_READING_VALUE}, found ${quoted(text)}`);
  }
  return value;
}

const COMMA = 44;
const DELETE = 127;
const MAX_SERIAL_LENGTH = 64;

export interface LineParserOptions extends CsvDialect {
  /**
   * The IANA time zone (e.g. Africa/Johannesburg) of timestamps written without a UTC offset
   * (`2026-11-25 08:00`); without it they are refused. Timestamps with an offset keep theirs.
   */
  timeZone?: string | undefined;
  /** What errors call the value field (import_kwh; volume_kl for water readings read into it). */
  valueName?: string | undefined;
}

/**
 * A parser of data lines under a header, from the file's bytes (parseBytes) or from text
 * (parseText): each appends the line to a CsvLines once it is wholly read, so that a bad line
 * leaves nothing behind, or throws an ImportError naming the line.
 */
export function createLineParser(header: CsvHeader, options: LineParserOptions = {}) {
  const { timeZone } = options;
  const position = (field: CsvField) => header.at.get(field) ?? -1;
  const at = {
    meter_sn: position('meter_sn'),
    ts: position('ts'),
    time: position('time'),
    import_kwh: position('import_kwh'),
    export_kwh: position('export_kwh'),
    kvarh: position('kvarh'),
    power_kw: position('power_kw'),
    kva: position('kva'),
  };
  /** A field as an error names it: with its column's name when the file calls it otherwise. */
  const label = (field: CsvField) => {
    const shown = field === 'import_kwh' ? (options.valueName ?? field) : field;
    const name = header.names.get(field);
    return name === undefined || name.toLowerCase() === shown ? shown : `${shown} (column "${name}")`;
  };
  const timestampOf = cachedTimestamps(timeZone === undefined ? undefined : localTimeReader(timeZone), label('ts'));
  const dateFormat = options.dateFormat ?? 'ISO';
  const readDate = dateFormat === 'ISO' && at.time < 0 ? null : dateReader(dateFormat);
  const decimalComma = options.decimal === ',';
  // The byte reader below takes the files the import command always took: commas, ISO times, decimal points.
  const plainFile = header.delimiter === ',' && readDate === null && !decimalComma && at.meter_sn >= 0;

  const fieldCount = header.size;
  const starts = new Int32Array(fieldCount);
  const ends = new Int32Array(fieldCount);
  const numberColumns = [at.import_kwh, at.export_kwh, at.kvarh, at.power_kw, at.kva];
  const plainValues = [0, 0, 0, 0, 0];
  // The serial of the line before, as bytes and as text: lines of a meter usually follow each other.
  const lastSerialBytes = new Uint8Array(MAX_SERIAL_LENGTH);
  let lastSerialLength = 0;
  let lastSerial = '';

  function serialAt(bytes: Buffer, start: number, end: number): string | undefined {
    const length = end - start;
    if (length === 0 || length > MAX_SERIAL_LENGTH) return undefined;
    let same = length === lastSerialLength;
    for (let i = 0; same && i < length; i++) same = bytes[start + i] === lastSerialBytes[i];
    if (same) return lastSerial;
    lastSerialBytes.set(bytes.subarray(start, end));
    lastSerialLength = length;
    lastSerial = bytes.toString('latin1', start, end);
    return lastSerial;
  }

  /**
   * The usual line, read in place: printable ASCII only (no space, quote or padding), the right
   * number of fields, plain decimals in range and a plain ISO timestamp (csv-bytes.ts). False for
   * any other line, which parseText reads (and reports).
   */
  function parsePlain(into: CsvLines, line: number, bytes: Buffer, start: number, end: number): boolean {
    if (!plainFile) return false;
    let field = 0;
    starts[0] = start;
    for (let i = start; i < end; i++) {
      const byte = bytes[i]!;
      if (byte === COMMA) {
        if (field === fieldCount - 1) return false;
        ends[field++] = i;
        starts[field] = i + 1;
      } else if (byte <= SPACE || byte >= DELETE || byte === QUOTE) return false;
    }
    if (field !== fieldCount - 1) return false;
    ends[field] = end;
    const serial = serialAt(bytes, starts[at.meter_sn]!, ends[at.meter_sn]!);
    if (serial === undefined) return false;
    for (let k = 0; k < numberColumns.length; k++) {
      const column = numberColumns[k]!;
      if (column < 0 || starts[column] === ends[column]) {
        if (k === 0) return false;
        plainValues[k] = Number.NaN;
        continue;
      }
      const value = decimalAt(bytes, starts[column]!, ends[column]!);
      if (!(value <= MAX_READING_VALUE)) return false;
      plainValues[k] = value;
    }
    const ts = isoTimeAt(bytes, starts[at.ts]!, ends[at.ts]!);
    if (Number.isNaN(ts)) return false;
    into.push(line, serial, ts, plainValues);
    return true;
  }

  /** The line's time as the timestamp parser reads it: the date column (and time column) in the file's date format. */
  function timeText(line: number, values: readonly string[]): string | undefined {
    const date = values[at.ts];
    if (readDate === null || date === undefined) return date;
    const time = at.time < 0 ? undefined : values[at.time];
    const text = readDate(date, time);
    if (text !== null) return text;
    const found = time === undefined ? quoted(date) : `${quoted(date)} and ${quoted(time)}`;
    throw new ImportError(line, `${label('ts')}: not a date in the format ${dateFormat}, found ${found}`);
  }

  function parseText(into: CsvLines, line: number, text: string): void {
    const values = fields(text, header.delimiter);
    if (values.length !== header.size) {
      throw new ImportError(line, `expected ${header.size} fields, found ${values.length}`);
    }
    const meterSn = at.meter_sn < 0 ? options.meterSn! : values[at.meter_sn]!;
    if (meterSn === '' || meterSn.length > MAX_SERIAL_LENGTH || meterSn.includes('\u0000')) {
      throw new ImportError(
        line,
        `${label('meter_sn')}: must be 1 to ${MAX_SERIAL_LENGTH} characters, found ${quoted(meterSn)}`,
      );
    }
    const ts = timestampOf(line, timeText(line, values));
    const number = (field: Column) => parseNumber(line, label(field), values[at[field]], decimalComma);
    const importKwh = number('import_kwh');
    if (Number.isNaN(importKwh)) throw new ImportError(line, `${label('import_kwh')}: missing`);
    into.push(line, meterSn, ts, [importKwh, number('export_kwh'), number('kvarh'), number('power_kw'), number('kva')]);
  }

  /** The line in bytes[start, end) (without its end): read in place when plain, else as text; a blank line is skipped. */
  function parseBytes(into: CsvLines, line: number, bytes: Buffer, start: number, end: number): void {
    if (parsePlain(into, line, bytes, start, end)) return;
    const text = bytes.toString('utf8', start, end);
    if (text.trim() !== '') parseText(into, line, text);
  }

  return { parseBytes, parseText };
}
