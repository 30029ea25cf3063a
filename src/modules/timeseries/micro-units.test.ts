import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { addMicro, kiloToMicro } from './micro-units.ts';
import { MAX_READING_VALUE } from './readings.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

/** What the database makes of each value: the expression the rollups are computed with (rollup-sql.ts). */
async function databaseMicro(values: readonly number[]): Promise<string[]> {
  const rows = await t.db.query<{ micro: string }>(
    'SELECT (round(v * 1e9)::int8)::text AS micro FROM unnest($1::float8[]) WITH ORDINALITY AS u(v, n) ORDER BY n',
    [values.map(String)],
  );
  return rows.map((row) => row.micro);
}

/** Values whose product by 1e9 is exactly halfway between two integers: where rounding rules differ. */
function halfwayValues(): number[] {
  const found: number[] = [];
  for (let k = 0; found.length < 40 && k < 100_000; k++) {
    const value = (k + 0.5) / 1e9;
    if (value * 1e9 === k + 0.5) found.push(value);
  }
  return found;
}

describe('kiloToMicro', () => {
  it('rounds halves to the even neighbour, as the database does', async () => {
    const ties = halfwayValues();
    expect(ties.length).toBeGreaterThan(10);
    expect(kiloToMicro(2.5e-9)).toBe(2);
    expect(kiloToMicro(3.5e-9)).toBe(4);
    expect(ties.map((v) => String(kiloToMicro(v)))).toEqual(await databaseMicro(ties));
  });

  it('gives the database value for any reading value', async () => {
    const values = fc.sample(
      fc.oneof(
        fc.double({ min: 0, max: MAX_READING_VALUE, noNaN: true }),
        fc.integer({ min: 0, max: 1e9 }).map((n) => n / 1000),
        fc.constantFrom(0, 1e-9, 0.1, 0.2, 0.3, MAX_READING_VALUE),
      ),
      { numRuns: 2000, seed: 20_261_122 },
    );
    expect(values.map((v) => String(kiloToMicro(v)))).toEqual(await databaseMicro(values));
  });
});

describe('addMicro', () => {
  it('adds exactly, going to bigint beyond the safe integers', () => {
    expect(addMicro(1, 2)).toBe(3);
    expect(addMicro(Number.MAX_SAFE_INTEGER, 2)).toBe(BigInt(Number.MAX_SAFE_INTEGER) + 2n);
    expect(addMicro(10n, 5)).toBe(15n);
    expect(addMicro(1e15, 1e15)).toBe(2e15);
  });
});
