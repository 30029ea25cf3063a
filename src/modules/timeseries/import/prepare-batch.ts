import type { Executor } from '../../../db/types.ts';
import { type MeterProblem, meterProblem } from '../meter-checks.ts';
import { type MeterRow, readingsRepository } from '../readings.repository.ts';
import { isAlignedOnInterval, ReadingBatch } from '../readings.ts';
import { type PreparedReadings, prepareReadings } from '../store-readings.ts';
import { type CsvLines, ImportError } from './readings-csv.ts';

const METER_PROBLEMS: Record<MeterProblem, (serial: string) => string> = {
  unknown: (serial) => `unknown meter "${serial}"`,
  foreign: (serial) => `meter "${serial}" belongs to another organization`,
  'not-electricity': (serial) => `meter "${serial}" is not an electricity meter`,
  'not-water': (serial) => `meter "${serial}" is not a water meter`,
};

/**
 * Turns parsed lines into readings to store: checks each line's meter (known, of accountId,
 * electricity) and interval, derives power, and keeps the last line for a (meter, ts). Meters are
 * looked up once per serial, all new serials of a batch in one query.
 */
export function createBatchPreparer(db: Executor, accountId: string) {
  const meters = new Map<string, MeterRow | undefined>();

  async function lookUp(serials: readonly string[]): Promise<void> {
    const unseen = new Set<string>();
    for (let i = 0; i < serials.length; i++) {
      const serial = serials[i]!;
      if (serial !== serials[i - 1] && !meters.has(serial)) unseen.add(serial);
    }
    if (unseen.size === 0) return;
    const found = new Map((await readingsRepository.findMetersBySerial(db, [...unseen])).map((m) => [m.meter_sn, m]));
    for (const serial of unseen) meters.set(serial, found.get(serial));
  }

  return async function prepare(csv: CsvLines): Promise<PreparedReadings> {
    await lookUp(csv.serials);
    const readings = new ReadingBatch(csv.length);
    let meter: MeterRow | undefined;
    for (let i = 0; i < csv.length; i++) {
      const serial = csv.serials[i]!;
      // Lines of one meter usually follow each other: its checks are made once for them.
      if (serial !== csv.serials[i - 1]) {
        meter = meters.get(serial);
        const problem = meterProblem(meter, accountId);
        if (problem) throw new ImportError(csv.lines[i]!, `meter_sn: ${METER_PROBLEMS[problem](serial)}`);
      }
      const { interval_minutes } = meter!;
      if (!isAlignedOnInterval(csv.ts[i]!, interval_minutes)) {
        throw new ImportError(
          csv.lines[i]!,
          `ts: not the start of one of the meter's ${interval_minutes}-minute intervals`,
        );
      }
      readings.append(
        meter!,
        csv.ts[i]!,
        csv.importKwh[i]!,
        csv.exportKwh[i],
        csv.kvarh[i],
        csv.powerKw[i],
        csv.kva[i],
      );
    }
    return prepareReadings(readings.lastPerKey());
  };
}
