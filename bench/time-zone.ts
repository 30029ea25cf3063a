/**
 * The time-zone engine against the Temporal API on the pricing engine's hot path:
 *   npx tsx bench/time-zone.ts
 * Turns a year of 30-minute readings (17,520 instants) into wall-clock times, in Johannesburg (no
 * daylight saving) and Berlin (two changes a year): with the engine's clock (`createLocalClock`,
 * what pricing uses), and with the Temporal polyfill (its offset at each instant). Median of 7
 * rounds, alternating, in one process.
 */
import { performance } from 'node:perf_hooks';
import { Temporal } from 'temporal-polyfill';
import { createLocalClock } from '../src/lib/time-zone.ts';
import { machine } from './support.ts';

const ROUNDS = 7;
const HALF_HOUR_MS = 1_800_000;
const instants = Array.from({ length: 17_520 }, (_, i) => Date.UTC(2025, 0, 1) + i * HALF_HOUR_MS);

function milliseconds(work: () => number): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

const engine = (zone: string) => () => {
  const local = createLocalClock(zone);
  let sum = 0;
  for (const t of instants) sum += local(t);
  return sum;
};

const temporal = (zone: string) => () => {
  const timeZone = zone;
  let sum = 0;
  for (const t of instants) {
    sum += t + Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(timeZone).offsetNanoseconds / 1e6;
  }
  return sum;
};

console.log(machine());
for (const zone of ['Africa/Johannesburg', 'Europe/Berlin']) {
  const engineTimes: number[] = [];
  const temporalTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    engineTimes.push(milliseconds(engine(zone)));
    temporalTimes.push(milliseconds(temporal(zone)));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [e, t] = [median(engineTimes), median(temporalTimes)];
  console.log(
    `${zone}, a year of half hours: engine ${e.toFixed(2)} ms, Temporal ${t.toFixed(1)} ms (${(t / e).toFixed(0)}x)`,
  );
}
