import type { Charge } from './charges.ts';
import type { Dec } from './money.ts';

/** One bill line before rounding: amount = quantity × unitPrice. */
export interface ChargeLine {
  charge: Charge;
  blockIndex: number | null;
  quantity: Dec;
  unitPrice: Dec;
}

/** Sums quantities per bill line: one line per tariff item (so per type, season and period) and block. */
export class LineBook {
  private readonly lines = new Map<string, ChargeLine>();

  add(charge: Charge, blockIndex: number | null, quantity: Dec, unitPrice: Dec): void {
    const key = `${charge.position}|${blockIndex ?? ''}`;
    const line = this.lines.get(key);
    if (line) line.quantity = line.quantity.plus(quantity);
    else this.lines.set(key, { charge, blockIndex, quantity, unitPrice });
  }

  /** Lines in the order of the tariff's items, then of block_index; lines of zero quantity are left out. */
  list(): ChargeLine[] {
    return [...this.lines.values()]
      .filter((line) => !line.quantity.isZero())
      .sort((a, b) => a.charge.position - b.charge.position || (a.blockIndex ?? 0) - (b.blockIndex ?? 0));
  }
}
