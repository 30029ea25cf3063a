import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, exactAmountCents, millionthsToDecimal, roundCents } from './money.ts';

/** The amount as the Decimal path rounds it, in cents (0 for -0: bills never show a -0). */
const decimalCents = (micro: number, price: Dec) =>
  roundCents(millionthsToDecimal(micro).times(price)).times(100).toNumber() || 0;

describe('exactAmountCents', () => {
  it('rounds half away from zero, as the Decimal path does', () => {
    // 1 kWh at 0.005: half a cent, up; a credit of it: half a cent, down.
    expect(exactAmountCents(1_000_000, new Dec('0.005'))).toBe(1);
    expect(exactAmountCents(1_000_000, new Dec('-0.005'))).toBe(-1);
    expect(exactAmountCents(-1_000_000, new Dec('0.005'))).toBe(-1);
    // Just under half a cent, and a fraction of a cent that rounds to nothing (never -0).
    expect(exactAmountCents(999_999, new Dec('0.005'))).toBe(0);
    expect(Object.is(exactAmountCents(-1, new Dec('0.0001')), 0)).toBe(true);
    expect(exactAmountCents(956_480_000, new Dec('7.689'))).toBe(735_437);
  });

  it('leaves to Decimals what a double would not hold exactly', () => {
    expect(exactAmountCents(2 ** 40, new Dec('12345.6789'))).toBeNull();
    expect(exactAmountCents(1_000_000, new Dec('0.123456789012345'))).toBeNull();
    expect(exactAmountCents(0.5, new Dec('1.5'))).toBeNull();
  });

  it('agrees with the Decimal path to the cent wherever it answers', () => {
    const price = fc
      .tuple(fc.integer({ min: -99_999_999, max: 99_999_999 }), fc.integer({ min: 0, max: 9 }))
      .map(([digits, places]) => new Dec(digits).div(new Dec(10).pow(places)));
    const micro = fc.oneof(
      fc.integer({ min: -1e12, max: 1e12 }),
      // Quantities that meet a price at exactly half a cent.
      fc.integer({ min: -1e6, max: 1e6 }).map((n) => n * 5_000),
    );
    fc.assert(
      fc.property(micro, price, (quantity, unitPrice) => {
        const cents = exactAmountCents(quantity, unitPrice);
        if (cents !== null) expect(cents).toBe(decimalCents(quantity, unitPrice));
      }),
      { numRuns: 20_000 },
    );
  });
});
