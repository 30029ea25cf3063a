interface MeterInterval {
  id: number;
  interval_minutes: number;
}

const MINUTE_MS = 60_000;

/**
 * The largest value a reading may carry (kWh, kvarh, kW or kVA): 1 GWh in one interval is far above
 * any real meter, and low enough that a day of rollup sums in micro-units stays within 64 bits
 * (migration 0007).
 */
export const MAX_READING_VALUE = 1_000_000;

/** A reading's ts must be the start of one of the meter's intervals (counted from the epoch, UTC). */
export function isAlignedOnInterval(ts: Date | number, intervalMinutes: number): boolean {
  return Number(ts) % (intervalMinutes * MINUTE_MS) === 0;
}

const isGiven = (value: number | undefined): value is number => value !== undefined && !Number.isNaN(value);

const VALUE_COLUMNS = ['ts', 'importKwh', 'exportKwh', 'kvarh', 'powerKw', 'kva'] as const;

/**
 * The time and the five values of readings, a typed array per column, one entry per reading up to
 * length: tens of thousands of readings cost no object per reading. ts is in milliseconds since
 * 1970 UTC. Subclasses add their own columns, and resize them with these.
 */
export class ReadingColumns {
  length = 0;
  ts: Float64Array;
  importKwh: Float64Array;
  exportKwh: Float64Array;
  kvarh: Float64Array;
  powerKw: Float64Array;
  kva: Float64Array;

  constructor(capacity: number) {
    this.ts = new Float64Array(capacity);
    this.importKwh = new Float64Array(capacity);
    this.exportKwh = new Float64Array(capacity);
    this.kvarh = new Float64Array(capacity);
    this.powerKw = new Float64Array(capacity);
    this.kva = new Float64Array(capacity);
  }

  /** Makes room for one more entry and returns its index (length grows by one). */
  protected nextIndex(): number {
    if (this.length === this.ts.length) this.resize(Math.max(16, this.length * 2));
    return this.length++;
  }

  /** Copies every column into new ones of capacity entries (the first ones, when there were more). */
  protected resize(capacity: number): void {
    for (const column of VALUE_COLUMNS) this[column] = resized(this[column], capacity);
  }
}

/** A ReadingBatch's data without its class. */
export type BatchColumns = Pick<
  ReadingBatch,
  'length' | 'meterId' | 'ts' | 'importKwh' | 'exportKwh' | 'kvarh' | 'powerKw' | 'kva'
>;

/** Readings to store, every value present, with their meter. */
export class ReadingBatch extends ReadingColumns {
  meterId: Int32Array;

  constructor(capacity = 1024) {
    super(capacity);
    this.meterId = new Int32Array(capacity);
  }

  /** The batch of these columns, as another thread sent them (without the class). */
  static of(columns: BatchColumns): ReadingBatch {
    const batch = new ReadingBatch(0);
    Object.assign(batch, columns);
    return batch;
  }

  /** Its columns as plain data, for another thread. */
  columns(): BatchColumns {
    const { length, meterId, ts, importKwh, exportKwh, kvarh, powerKw, kva } = this;
    return { length, meterId, ts, importKwh, exportKwh, kvarh, powerKw, kva };
  }

  /** Appends a reading as stored: every value given. */
  push(meterId: number, ts: number, importKwh: number, exportKwh: number, kvarh: number, powerKw: number, kva: number) {
    const i = this.nextIndex();
    this.meterId[i] = meterId;
    this.ts[i] = ts;
    this.importKwh[i] = importKwh;
    this.exportKwh[i] = exportKwh;
    this.kvarh[i] = kvarh;
    this.powerKw[i] = powerKw;
    this.kva[i] = kva;
  }

  /**
   * Appends a reading of meter, filling in the values it may omit (undefined or NaN): energies
   * default to 0; power_kw is the mean power of the interval (import_kwh * 60 / interval_minutes)
   * and kva the apparent power from it and the reactive power kvarh * 60 / interval_minutes.
   */
  append(
    meter: MeterInterval,
    ts: number,
    importKwh: number,
    exportKwh?: number,
    kvarh?: number,
    powerKw?: number,
    kva?: number,
  ): void {
    const reactive = isGiven(kvarh) ? kvarh : 0;
    const power = isGiven(powerKw) ? powerKw : (importKwh * 60) / meter.interval_minutes;
    const kvar = (reactive * 60) / meter.interval_minutes;
    const apparent = isGiven(kva) ? kva : Math.sqrt(power * power + kvar * kvar);
    this.push(meter.id, ts, importKwh, isGiven(exportKwh) ? exportKwh : 0, reactive, power, apparent);
  }

  /** Appends reading i of another batch. */
  pushFrom(other: ReadingBatch, i: number): void {
    this.push(
      other.meterId[i]!,
      other.ts[i]!,
      other.importKwh[i]!,
      other.exportKwh[i]!,
      other.kvarh[i]!,
      other.powerKw[i]!,
      other.kva[i]!,
    );
  }

  distinctMeterIds(): number[] {
    return [...new Set(this.meterId.subarray(0, this.length))];
  }

  /** The readings of these meters only (this batch when they are all of them). */
  only(meterIds: ReadonlySet<number>): ReadingBatch {
    const kept = new ReadingBatch(this.length);
    for (let i = 0; i < this.length; i++) if (meterIds.has(this.meterId[i]!)) kept.pushFrom(this, i);
    return kept.length === this.length ? this : kept;
  }

  /**
   * The last reading given for each (meter, ts), in order of first appearance. A batch in which
   * each meter's readings are consecutive and in time order (the usual case) repeats no key, and is
   * returned as it is.
   */
  lastPerKey(): ReadingBatch {
    if (this.isInOrder()) return this;
    // A key keeps its first place in the map when it is set again with a later index.
    const last = new Map<string, number>();
    for (let i = 0; i < this.length; i++) last.set(`${this.meterId[i]}:${this.ts[i]}`, i);
    const unique = new ReadingBatch(last.size);
    for (const i of last.values()) unique.pushFrom(this, i);
    return unique;
  }

  /** Whether each meter's readings are consecutive and in time order. */
  isInOrder(): boolean {
    const seen = new Set<number>();
    for (let i = 0; i < this.length; i++) {
      const meterId = this.meterId[i]!;
      if (i > 0 && meterId === this.meterId[i - 1]) {
        if (!(this.ts[i]! > this.ts[i - 1]!)) return false;
      } else if (seen.has(meterId)) return false;
      else seen.add(meterId);
    }
    return true;
  }

  protected override resize(capacity: number): void {
    super.resize(capacity);
    this.meterId = resized(this.meterId, capacity);
  }
}

/** A copy of a column with room for capacity values (its first ones, when it held more). */
export function resized<T extends Int32Array | Float64Array>(column: T, capacity: number): T {
  const next = new (column.constructor as new (length: number) => T)(capacity);
  next.set(column.subarray(0, capacity));
  return next;
}
