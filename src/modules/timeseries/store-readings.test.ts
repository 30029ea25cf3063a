import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { insertMeter, rollupsAndRaw, storedReadings } from '../../../test/helpers/timeseries-factories.ts';
import { notifyOtherProcesses } from '../../db/read-cache.ts';
import { ReadingBatch } from './readings.ts';
import { type PreparedReadings, prepareReadings, storeReadings } from './store-readings.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

/** A batch of readings of one meter, each [minutes from the start of 2026-04-01, import_kwh]. */
function readings(meterId: number, ...values: [number, number][]): PreparedReadings {
  const batch = new ReadingBatch();
  for (const [minutes, value] of values) {
    batch.push(meterId, Date.UTC(2026, 3, 1) + minutes * 60_000, value, 0, 0, value * 2, value * 2);
  }
  return prepareReadings(batch);
}

describe('storeReadings', () => {
  it('counts each write of a transaction on its own, whichever way it is stored', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const counts = await t.db.transaction(async (tx) => [
      // New readings (bulk load), then one replaced (upsert), then one replaced and one new (upsert).
      await storeReadings(tx, org.accountId, readings(m.id, [0, 1], [30, 2]), notifyOtherProcesses),
      await storeReadings(tx, org.accountId, readings(m.id, [0, 3]), notifyOtherProcesses),
      await storeReadings(tx, org.accountId, readings(m.id, [30, 4], [60, 5]), notifyOtherProcesses),
    ]);
    expect(counts).toEqual([
      { inserted: 2, updated: 0 },
      { inserted: 0, updated: 1 },
      { inserted: 1, updated: 1 },
    ]);
    expect((await storedReadings(t.db, m.id)).map((r) => r.import_kwh)).toEqual([3, 4, 5]);
    const rollups = await rollupsAndRaw(t.db, m.id);
    expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
    expect(rollups.daily).toEqual(rollups.dailyFromRaw);
  });

  it('writes nothing for meters of another organization', async () => {
    const foreign = await insertMeter(t.db, org.otherAccountId);
    const counts = await t.db.transaction((tx) =>
      storeReadings(tx, org.accountId, readings(foreign.id, [0, 1]), notifyOtherProcesses),
    );
    expect(counts).toEqual({ inserted: 0, updated: 0 });
    expect(await storedReadings(t.db, foreign.id)).toEqual([]);
  });
});
