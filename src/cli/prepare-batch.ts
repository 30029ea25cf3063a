import type { Executor } from '../db/types.ts';
import { type MeterProblem, meterProblem } from '../modules/timeseries/meter-checks.ts';
import { completeReading, isAlignedOnInterval, type StoredReading } from '../modules/timeseries/readings.ts';
import { type MeterRow, readingsRepository } from '../modules/timeseries/readings.repository.ts';
import { type CsvReading, ImportError } from './readings-csv.ts';

const METER_PROBLEMS: Record<MeterProblem, (serial: string) => string> = {
  unknown: (serial) => `unknown meter "${serial}"`,
  foreign: (serial) => `meter "${serial}" belongs to another organization`,
  'not-electricity': (serial) => `meter "${serial}" is not an electricity meter`,
};

/** The last reading given for each (meter, ts), in order of first appearance. */
function lastPerKey(readings: readonly StoredReading[]): StoredReading[] {
  const latest = new Map<string, StoredReading>();
  for (const reading of readings) latest.set(`${reading.meter_id}:${reading.ts.getTime()}`, reading);
  return [...latest.values()];
}

/**
 * Turns parsed lines into readings to store: checks each line's meter (known, of accountId,
 * electricity) and interval, derives power, and keeps the last line for a (meter, ts). Meters are
 * looked up once per serial, all new serials of a batch in one query.
 */
export function createBatchPreparer(db: Executor, accountId: string) {
  const meters = new Map<string, MeterRow | undefined>();

  async function lookUp(batch: readonly CsvReading[]): Promise<void> {
    const unseen = new Set<string>();
    for (const { meter_sn } of batch) if (!meters.has(meter_sn)) unseen.add(meter_sn);
    if (unseen.size === 0) return;
    const found = new Map((await readingsRepository.findMetersBySerial(db, [...unseen])).map((m) => [m.meter_sn, m]));
    for (const serial of unseen) meters.set(serial, found.get(serial));
  }

  return async function prepare(batch: readonly CsvReading[]): Promise<StoredReading[]> {
    await lookUp(batch);
    const readings: StoredReading[] = [];
    // A batch in which each meter's readings are consecutive and in time order (files usually
    // are) repeats no (meter, ts): only other batches are searched for repeats.
    const metersSeen = new Set<number>();
    let inOrder = true;
    let previous: StoredReading | undefined;
    for (const reading of batch) {
      const { line, meter_sn } = reading;
      const meter = meters.get(meter_sn);
      const problem = meterProblem(meter, accountId);
      if (problem) throw new ImportError(line, `meter_sn: ${METER_PROBLEMS[problem](meter_sn)}`);
      const { id, interval_minutes } = meter!;
      if (!isAlignedOnInterval(reading.ts, interval_minutes)) {
        throw new ImportError(line, `ts: not the start of one of the meter's ${interval_minutes}-minute intervals`);
      }
      const stored = completeReading(meter!, reading);
      if (previous?.meter_id === id) inOrder &&= stored.ts > previous.ts;
      else if (metersSeen.has(id)) inOrder = false;
      else metersSeen.add(id);
      readings.push(stored);
      previous = stored;
    }
    return inOrder ? readings : lastPerKey(readings);
  };
}
