import type { Charge } from './charges.ts';
import { type Dec, millionthsToDecimal } from './money.ts';

/**
 * One bill line before rounding: amount = quantity × unitPrice. Metered energy is counted in whole
 * millionths of its unit (`micro`), which bill.ts prices in integers; any other quantity (a share
 * of a day, of a month) is a Decimal.
 */
export type ChargeLine = {
  charge: Charge;
  blockIndex: number | null;
  unitPrice: Dec;
} & ({ micro: number; quantity?: undefined } | { quantity: Dec; micro?: undefined });

/** The line's quantity as a Decimal, whichever way it is counted. */
export const quantityOf = (line: ChargeLine): Dec => line.quantity ?? millionthsToDecimal(line.micro!);

/** Sums quantities per bill line: one line per tariff item (so per type, season and period) and block. */
export class LineBook {
  private readonly lines = new Map<string, ChargeLine>();

  /**
   * Millionths of the unit of metered energy (kWh, kvarh): counted as integers while they are whole
   * and their sum stays exact in a double, else as Decimals (a kvarh free ratio makes fractions).
   */
  addMicro(charge: Charge, blockIndex: number | null, micro: number, unitPrice: Dec): void {
    const line = this.lines.get(keyOf(charge, blockIndex));
    if (!line && Number.isSafeInteger(micro))
      this.lines.set(keyOf(charge, blockIndex), { charge, blockIndex, micro, unitPrice });
    else if (line?.micro !== undefined && Number.isSafeInteger(micro) && Number.isSafeInteger(line.micro + micro))
      line.micro += micro;
    else this.add(charge, blockIndex, millionthsToDecimal(micro), unitPrice);
  }

  add(charge: Charge, blockIndex: number | null, quantity: Dec, unitPrice: Dec): void {
    const key = keyOf(charge, blockIndex);
    const line = this.lines.get(key);
    if (line)
      this.lines.set(key, { charge, blockIndex, unitPrice: line.unitPrice, quantity: quantityOf(line).plus(quantity) });
    else this.lines.set(key, { charge, blockIndex, quantity, unitPrice });
  }

  /** Lines in the order of the tariff's items, then of block_index; lines of zero quantity are left out. */
  list(): ChargeLine[] {
    return [...this.lines.values()]
      .filter((line) => (line.micro === undefined ? !line.quantity.isZero() : line.micro !== 0))
      .sort((a, b) => a.charge.position - b.charge.position || (a.blockIndex ?? 0) - (b.blockIndex ?? 0));
  }
}

const keyOf = (charge: Charge, blockIndex: number | null) => `${charge.position}|${blockIndex ?? ''}`;
