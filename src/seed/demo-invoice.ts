import type { Executor } from '../db/types.ts';
import { lastWholeMonth } from '../http/examples.ts';
import { invoicesRepository } from '../modules/invoices/invoices.repository.ts';

/**
 * The utility's invoice of the demo site's grid for the last whole month before `now` (South
 * African time): a service charge and a late-payment fee, so that a check has something to say.
 */
export async function seedDemoInvoice(tx: Executor, accountId: string, blockId: number, now: Date) {
  const month = lastWholeMonth(now);
  const invoice = await invoicesRepository.insert(tx, accountId, {
    building_block_id: blockId,
    source: 'grid',
    supplier: 'City Power',
    invoice_number: `DEMO-${month.start.slice(0, 7)}`,
    issued_on: month.end.slice(0, 10),
    start: month.start,
    end: month.end,
    currency: 'ZAR',
    estimated: false,
    lines: [
      { description: 'Service charge', item_type_code: 'SERVICE', quantity: 31, unit: 'day', amount: 101.37 },
      { description: 'Late payment fee', item_type_code: null, quantity: null, unit: null, amount: 50 },
    ],
    subtotal: 151.37,
    tax: 22.71,
    total: 174.08,
  });
  return invoice.id;
}
