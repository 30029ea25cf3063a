/**
 * One set of value parsers for both drivers, so rows look the same on PGlite and PostgreSQL:
 * bigint and numeric become JS numbers (prices fit a double exactly to 15 digits, money is
 * recomputed with decimal arithmetic), dates stay 'YYYY-MM-DD' strings (no time-zone shift).
 */
const OID = { int8: 20, numeric: 1700, date: 1082 } as const;

export const typeParsers: Record<number, (value: string) => unknown> = {
  [OID.int8]: (v) => Number(v),
  [OID.numeric]: (v) => Number(v),
  [OID.date]: (v) => v,
};
