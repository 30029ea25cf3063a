/**
 * An exact integer of micro-units of the base unit (µWh, µvarh, µW, µVA: 1e-9 of the kWh, kvarh,
 * kW, kVA a reading is in), as the rollups store them: a number while it is a safe integer, a
 * bigint beyond.
 */
export type Micro = number | bigint;

/**
 * A reading's value in its kilo-unit (kWh) as an integer of the micro-unit (µWh), × 1e9, exactly
 * as PostgreSQL computes `round(value * 1e9)::int8` (rollup-sql.ts): the same double product,
 * rounded half to even like rint(). Values are at most MAX_READING_VALUE, so the product is below
 * 2^53 and the result exact.
 */
export function kiloToMicro(value: number): number {
  const product = value * 1e9;
  const rounded = Math.round(product);
  // Math.round takes halves up; rint takes them to the even neighbour.
  return rounded - product === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
}

export function addMicro(a: Micro, b: Micro): Micro {
  if (typeof a === 'number' && typeof b === 'number') {
    const sum = a + b;
    if (Number.isSafeInteger(sum)) return sum;
  }
  return BigInt(a) + BigInt(b);
}
