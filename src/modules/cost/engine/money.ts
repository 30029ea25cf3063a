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

/** A price as a whole number of its last decimal place (2.3526: 23526 and 4 places), or null where that number is not exact in a double. */
interface ScaledPrice {
  scaled: number;
  places: number;
}

/** Prices are few and kept (the read cache hands out the same tariff until it changes): each is scaled once. */
const scaledPrices = new WeakMap<Dec, ScaledPrice | null>();

/** 10^places, exact in a double, for a divisor of micro × scaled: the micro-unit's 6 places and the price's, less the cent's 2. */
const MAX_PRICE_PLACES = 11;

function scaledPrice(price: Dec): ScaledPrice | null {
  let scaledPriceOf = scaledPrices.get(price);
  if (scaledPriceOf === undefined) {
    const places = price.decimalPlaces();
    const scaled = price.times(new Dec(10).pow(places)).toNumber();
    scaledPriceOf = places <= MAX_PRICE_PLACES && Number.isSafeInteger(scaled) ? { scaled, places } : null;
    scaledPrices.set(price, scaledPriceOf);
  }
  return scaledPriceOf;
}

/** Below this a product, its quotient and remainder by a divisor of at most 10^15 are exact in doubles. */
const EXACT_PRODUCT_MAX = 2 ** 52;

/** numerator / divisor rounded half away from zero; both integers, |numerator| and divisor at most 2^52. */
function divideHalfUp(numerator: number, divisor: number): number {
  const magnitude = Math.abs(numerator);
  let quotient = Math.floor(magnitude / divisor);
  let remainder = magnitude - quotient * divisor;
  // The double quotient may round across an integer: the remainder puts it right.
  if (remainder < 0) [quotient, remainder] = [quotient - 1, remainder + divisor];
  else if (remainder >= divisor) [quotient, remainder] = [quotient + 1, remainder - divisor];
  const rounded = 2 * remainder >= divisor ? quotient + 1 : quotient;
  return numerator < 0 && rounded !== 0 ? -rounded : rounded;
}

/**
 * The amount of `micro` millionths of a unit at `price` a unit, in whole cents rounded half away
 * from zero, computed in integers: what `roundCents(millionthsToDecimal(micro).times(price))`
 * gives, without a Decimal. Null where the product would not be exact in a double (a huge quantity
 * or a price of many digits): the caller then multiplies Decimals.
 */
export function exactAmountCents(micro: number, price: Dec): number | null {
  const scaledPriceOf = scaledPrice(price);
  if (scaledPriceOf === null || !Number.isSafeInteger(micro)) return null;
  const product = micro * scaledPriceOf.scaled;
  if (Math.abs(product) > EXACT_PRODUCT_MAX) return null;
  // micro/10^6 × scaled/10^places in cents (× 10^2).
  return divideHalfUp(product, 10 ** (scaledPriceOf.places + 4));
}
