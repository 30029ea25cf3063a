import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/test-database.ts';
import { migrate } from './migrate.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.drop());

describe('migrate', () => {
  it('applies nothing twice, also to a database that recorded a migration under its earlier file name', async () => {
    const { db } = database;
    const count = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM dso_public_holidays'))[0]!.n;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await db.query(
      `UPDATE schema_migrations SET name = '0003_public_holidays.ts' WHERE name = '0003_public_holidays.sql'`,
    );

    expect(await migrate(db)).toEqual([]);
    expect(await count()).toBe(before);
    const names = await db.query<{ name: string }>(`SELECT name FROM schema_migrations WHERE name LIKE '0003%'`);
    expect(names).toEqual([{ name: '0003_public_holidays.sql' }]);
  });
});
