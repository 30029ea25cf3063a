import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ingest, insertMeter } from '../../../test/helpers/timeseries-factories.ts';
import { aggregatesRepository } from './aggregates.repository.ts';
import { ENERGY } from './totals.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('aggregates repository', () => {
  it('answers nothing for meters of another organization, even when the caller passes their ids', async () => {
    const org = await organizationWithRoles(t.app);
    const own = await insertMeter(t.db, org.accountId);
    const foreign = await insertMeter(t.db, org.otherAccountId);
    const start = '2026-03-01T00:00:00.000Z';
    await ingest(org.owner.client, org.accountId, own.meter_sn, [{ ts: start, import_kwh: 1 }]);
    await ingest(org.outsider.client, org.otherAccountId, foreign.meter_sn, [{ ts: start, import_kwh: 2 }]);
    const range = { start: new Date(start), end: new Date('2026-03-02T00:00:00.000Z') };

    const ownSums = await aggregatesRepository.sums(t.db, org.accountId, [own.id], range);
    expect(ownSums.get(own.id)?.import_kwh).toBe(1);
    expect((await aggregatesRepository.sums(t.db, org.accountId, [foreign.id], range)).size).toBe(0);
    expect((await aggregatesRepository.sums(t.db, org.accountId, [own.id, foreign.id], range)).size).toBe(0);
    expect(
      await aggregatesRepository.profile(t.db, ENERGY, org.accountId, [foreign.id], range, { minutes: 60 }),
    ).toEqual([]);
  });
});
