import { type Dec, roundQuantity } from './money.ts';
import type { Season } from './types.ts';

/**
 * What one month of a bill must say (extensions §12.1): its warnings, each once and in the order
 * found, and whether it is complete: nothing missing (a missing interval, a needed NMD) and nothing
 * left unpriced.
 */
export class MonthNotes {
  private readonly texts = new Set<string>();
  private readonly unpriced = new Map<string, { code: string; season: Season | null; unit: string; quantity: Dec }>();
  private incomplete = false;

  /** Something the reader should know that leaves the bill complete. */
  warn(text: string): void {
    this.texts.add(text);
  }

  /** Something missing or unpriced: the month is incomplete. */
  lack(text: string): void {
    this.texts.add(text);
    this.incomplete = true;
  }

  /** A quantity of an item type's unit that no item of the type prices in the day's season. */
  addUnpriced(code: string, season: Season | null, unit: string, quantity: Dec): void {
    if (quantity.isZero()) return;
    const key = `${code}|${season}|${unit}`;
    const known = this.unpriced.get(key);
    if (known) known.quantity = known.quantity.plus(quantity);
    else this.unpriced.set(key, { code, season, unit, quantity });
  }

  get complete(): boolean {
    return !this.incomplete && this.unpriced.size === 0;
  }

  /** The warnings, the unpriced quantities after the others. */
  list(): string[] {
    const unpriced = [...this.unpriced.values()].map(
      ({ code, season, unit, quantity }) =>
        `No ${code} item for ${season ?? 'no season'}: ${roundQuantity(quantity)} ${unit} not priced`,
    );
    return [...this.texts, ...unpriced];
  }
}
