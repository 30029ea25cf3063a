import { firstAtOrAfter } from '../../db/kept-months.ts';
import type { Reading } from './engine/index.ts';

/** One reading of a meter as a month of them is read to be kept: its start in ms since 1970. */
export interface ReadingRow {
  ms: number;
  import_kwh: number;
  export_kwh: number;
  kvarh: number;
  kva: number;
}

/**
 * A meter's readings of one UTC month (ascending by start) in columns, as months of them are kept
 * for the partial hours at a period's edges: a month of 30-minute readings is 1,440 rows, of which
 * a bill takes a few. As objects with their dates they were some 3,000 objects a month to keep,
 * freeze and carry through every garbage collection; columns are six, and only the readings asked
 * for become objects.
 */
export class ReadingColumns {
  readonly ms: Float64Array;
  readonly importKwh: Float64Array;
  readonly exportKwh: Float64Array;
  readonly kvarh: Float64Array;
  readonly kva: Float64Array;

  constructor(rows: readonly ReadingRow[]) {
    const count = rows.length;
    this.ms = new Float64Array(count);
    this.importKwh = new Float64Array(count);
    this.exportKwh = new Float64Array(count);
    this.kvarh = new Float64Array(count);
    this.kva = new Float64Array(count);
    rows.forEach((row, i) => {
      this.ms[i] = row.ms;
      this.importKwh[i] = row.import_kwh;
      this.exportKwh[i] = row.export_kwh;
      this.kvarh[i] = row.kvarh;
      this.kva[i] = row.kva;
    });
  }

  /** What it takes in memory, about. */
  get bytes(): number {
    return 64 + this.ms.length * 40;
  }

  /** The readings starting in [from, to) (ms), oldest first, found by bisection. */
  within(from: number, to: number): Reading[] {
    const timeAt = (index: number) => this.ms[index]!;
    const readings: Reading[] = [];
    const end = firstAtOrAfter(this.ms.length, timeAt, to);
    for (let i = firstAtOrAfter(this.ms.length, timeAt, from); i < end; i++) {
      readings.push({
        ts: new Date(this.ms[i]!),
        import_kwh: this.importKwh[i]!,
        export_kwh: this.exportKwh[i]!,
        kvarh: this.kvarh[i]!,
        kva: this.kva[i]!,
      });
    }
    return readings;
  }
}
