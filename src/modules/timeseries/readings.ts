/** One interval reading as given by a client or a file: the measured values, power optional. */
export interface ReadingInput {
  /** Start of the meter's interval. */
  ts: Date;
  import_kwh: number;
  export_kwh?: number | undefined;
  kvarh?: number | undefined;
  power_kw?: number | undefined;
  kva?: number | undefined;
}

/** A reading as stored: every value present. */
export interface StoredReading {
  meter_id: number;
  ts: Date;
  import_kwh: number;
  export_kwh: number;
  kvarh: number;
  power_kw: number;
  kva: number;
}

export interface MeterInterval {
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
export function isAlignedOnInterval(ts: Date, intervalMinutes: number): boolean {
  return ts.getTime() % (intervalMinutes * MINUTE_MS) === 0;
}

/**
 * Fills in the values a reading may omit: energies default to 0; power_kw is the mean power of the
 * interval (import_kwh * 60 / interval_minutes) and kva the apparent power from it and the reactive
 * power kvarh * 60 / interval_minutes.
 */
export function completeReading(meter: MeterInterval, reading: ReadingInput): StoredReading {
  const kvarh = reading.kvarh ?? 0;
  const power_kw = reading.power_kw ?? (reading.import_kwh * 60) / meter.interval_minutes;
  const kvar = (kvarh * 60) / meter.interval_minutes;
  return {
    meter_id: meter.id,
    ts: reading.ts,
    import_kwh: reading.import_kwh,
    export_kwh: reading.export_kwh ?? 0,
    kvarh,
    power_kw,
    kva: reading.kva ?? Math.sqrt(power_kw * power_kw + kvar * kvar),
  };
}
