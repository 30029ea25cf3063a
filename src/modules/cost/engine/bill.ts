import { Dec, millionthsToNumber, roundCents, roundQuantity, ZERO } from './money.ts';
import type { PricedUsage } from './pricing.ts';
import type { Bill, BillLine, PricingTariff } from './types.ts';

/** Avoids -0 in the output (a zero credit). */
function toNumber(value: Dec): number {
  return value.isZero() ? 0 : value.toNumber();
}

export function assembleBill(tariff: PricingTariff, priced: PricedUsage): Bill {
  let subtotal = ZERO;
  const lines: BillLine[] = priced.lines.map((line) => {
    const amount = roundCents(line.quantity.times(line.unitPrice));
    subtotal = subtotal.plus(amount);
    return {
      item_type_code: line.charge.item.item_type_code,
      season: line.charge.item.season,
      period: line.charge.period,
      block_index: line.blockIndex,
      quantity: roundQuantity(line.quantity),
      unit: line.charge.item.unit,
      unit_price: toNumber(line.unitPrice),
      amount: toNumber(amount),
    };
  });
  const taxRate = new Dec(tariff.tax_rate);
  const tax = roundCents(subtotal.times(taxRate).div(100));
  const { usage } = priced;
  return {
    tariff_id: tariff.id,
    currency: tariff.currency,
    approximate: priced.approximate,
    import_kwh: millionthsToNumber(usage.importMicro),
    export_kwh: millionthsToNumber(usage.exportMicro),
    kvarh: millionthsToNumber(usage.kvarhMicro),
    max_kva: usage.maxKva === null ? null : roundQuantity(new Dec(usage.maxKva)),
    lines,
    subtotal: toNumber(subtotal),
    tax_rate: taxRate.toNumber(),
    tax: toNumber(tax),
    total: toNumber(subtotal.plus(tax)),
    missing_intervals: usage.missingIntervals,
  };
}
