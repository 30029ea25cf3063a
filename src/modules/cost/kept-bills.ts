import { createVersionedResults, type VersionedResults } from '../../db/versioned-results.ts';
import type { KeptBill } from './cost.service.ts';

/** How much the kept bills may take at most, in bytes of their JSON as estimated below: some 650 meter-years. */
const BILLS_KEPT_BYTES = 16_000_000;

/** Bytes of JSON a line and the rest of a month or bill take, as measured on the demo's bills (about 170 and 520). */
const LINE_BYTES = 200;
const MONTH_BYTES = 600;

const billBytes = (bill: KeptBill) =>
  MONTH_BYTES +
  LINE_BYTES * bill.lines.length +
  bill.months.reduce((sum, month) => sum + MONTH_BYTES + LINE_BYTES * month.lines.length, 0);

/** Bills of periods asked for once remembered (their keys, some 200 bytes each): 2 MB. */
const KEYS_REMEMBERED = 10_000;

/**
 * The bills the cost service keeps (cost.service.ts `bill`), the least recently used dropped first;
 * a bill is kept from the second time its period is asked for, so that a flood of periods each of
 * its own keeps nothing. `onPriced` hears of each bill priced rather than answered as kept.
 */
export function createKeptBills(onPriced: () => void): VersionedResults<KeptBill> {
  const bills = createVersionedResults(BILLS_KEPT_BYTES, billBytes, {
    keepOnSecondRequest: { keysRemembered: KEYS_REMEMBERED },
  });
  return {
    keeps: bills.keeps,
    kept: bills.kept,
    get: (tokens, key, price) =>
      bills.get(tokens, key, () => {
        onPriced();
        return price();
      }),
  };
}
