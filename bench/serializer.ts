/**
 * The cost of writing replies in the shape of their response schema:
 *   npx tsx bench/serializer.ts
 * Writes the tariff read's envelope (a tariff with four items and its DSO) and a page of 20
 * tariffs, each with the schema's shape and whole, alternating rounds in one process so that both
 * see the same machine. A cached (frozen) tariff is written once per shape and reused after.
 */
import { performance } from 'node:perf_hooks';
import { ok } from '../src/http/envelope.ts';
import { responseShape } from '../src/http/response-shape.ts';
import { serializeReply } from '../src/http/serializer.ts';
import { GRID_TARIFF_EXAMPLE, ITEM_EXAMPLE, tariffResponses } from '../src/modules/tariffs/tariffs.responses.ts';
import { machine } from './support.ts';

const ROUNDS = 7;
const CALLS = 20_000;

const tariff = () => ({
  ...GRID_TARIFF_EXAMPLE,
  created_at: new Date(),
  updated_at: new Date(),
  tariff_items: [1, 2, 3, 4].map((i) => ({ ...ITEM_EXAMPLE, id: i })),
  dso: { id: 1, name: 'Eskom', tz: 'Africa/Johannesburg' },
});
const detailShape = responseShape(tariffResponses.tariff);
const listShape = responseShape(tariffResponses.list);
const page = {
  ...ok(Array.from({ length: 20 }, () => ({ ...GRID_TARIFF_EXAMPLE, created_at: new Date() }))),
  count: 20,
};

function microseconds(write: () => void): number {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) write();
  return ((performance.now() - start) * 1000) / CALLS;
}

const cases = {
  'tariff read, fresh object': [() => serializeReply(ok(tariff()), detailShape), () => serializeReply(ok(tariff()))],
  'page of 20 tariffs': [() => serializeReply(page, listShape), () => serializeReply(page)],
  'tariff read, cached (frozen)': (() => {
    const cached = Object.freeze(tariff());
    return [() => serializeReply(ok(cached), detailShape), () => serializeReply(ok(cached))];
  })(),
} as const;

console.log(machine());
for (const [name, [shaped, whole]] of Object.entries(cases)) {
  const shapedTimes: number[] = [];
  const wholeTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    shapedTimes.push(microseconds(shaped));
    wholeTimes.push(microseconds(whole));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const s = median(shapedTimes);
  const w = median(wholeTimes);
  console.log(`${name}: shaped ${s.toFixed(2)} µs, whole ${w.toFixed(2)} µs, ratio ${(s / w).toFixed(2)}`);
}
