import { Decimal } from 'decimal.js';

/** Decimal with enough precision that month and day fractions stay exact far beyond the cent. */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = Decimal;

export const ZERO = new Dec(0);

/**
 * Metered quantities (kWh, kvarh) are summed as integers of millionths of their unit (the
 * engine's *Micro values: 1e-6 kWh), which is exact in a double up to 9e9 kWh and much faster
 * than a Decimal per reading; the service keeps energies to 6 decimals, so nothing is lost.
 */
const MILLIONTHS_PER_UNIT = 1_000_000;

export function toMillionths(value: number): number {
  return Math.round(value * MILLIONTHS_PER_UNIT);
}

export function millionthsToDecimal(millionths: number): Dec {
  return new Dec(millionths).div(MILLIONTHS_PER_UNIT);
}

export function millionthsToNumber(millionths: number): number {
  return millionths / MILLIONTHS_PER_UNIT;
}

/** Rounds to the cent, half away from zero (decimal.js ROUND_HALF_UP is symmetric). */
export function roundCents(value: Dec): Dec {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

export function roundQuantity(value: Dec): number {
  return value.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toNumber();
}
