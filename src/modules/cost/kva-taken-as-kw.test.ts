import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ingest, insertMeter, type ReadingBody } from '../../../test/helpers/timeseries-factories.ts';

// A kVA/month item charged on measured demand takes the readings' kVA; the bill says it was taken
// as kW only where the readings carry neither kvarh nor a kVA of their own (extensions §12.1, §13.8).

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

const MEGAFLEX = 8;
const KVA_FROM_KW = 'kVA taken as kW: the readings carry no reactive energy';

/** Two half hours of Monday 2 June 2025 (Johannesburg, UTC+2) with the values given. */
const halfHours = (values: Omit<ReadingBody, 'ts' | 'import_kwh'>): ReadingBody[] => [
  { ts: '2025-06-02T10:00:00.000Z', import_kwh: 40, ...values },
  { ts: '2025-06-02T10:30:00.000Z', import_kwh: 50, ...values },
];

/** The warnings of the meter's Megaflex bill over [start, end). */
async function warningsOf(readings: ReadingBody[], start: string, end: string) {
  const meter = await insertMeter(t.db, r.accountId);
  await ingest(r.owner.client, r.accountId, meter.meter_sn, readings);
  const res = await r.member.client.get(`/api/v1/tariffs/${MEGAFLEX}/cost`, {
    account_id: r.accountId,
    meter_sn: meter.meter_sn,
    start,
    end,
  });
  expect(res.status).toBe(200);
  return res.body.data.warnings as string[];
}

// The day's whole hours are priced from the hourly rollups; a half hour, from the readings.
describe.each([
  { path: 'hourly rollups', start: '2025-06-02T00:00:00+02:00', end: '2025-06-03T00:00:00+02:00' },
  { path: 'readings', start: '2025-06-02T10:00:00Z', end: '2025-06-02T10:30:00Z' },
])('a bill priced from its $path', ({ start, end }) => {
  it('does not say kVA was taken as kW for readings that carry their kVA', async () => {
    expect(await warningsOf(halfHours({ kva: 130 }), start, end)).not.toContain(KVA_FROM_KW);
  });

  it('says kVA was taken as kW for readings with neither kvarh nor kVA', async () => {
    expect(await warningsOf(halfHours({}), start, end)).toContain(KVA_FROM_KW);
  });

  it('says so too for readings that carry their kW only', async () => {
    expect(await warningsOf(halfHours({ power_kw: 85 }), start, end)).toContain(KVA_FROM_KW);
  });

  it('does not say so for readings with kvarh', async () => {
    expect(await warningsOf(halfHours({ kvarh: 10 }), start, end)).not.toContain(KVA_FROM_KW);
  });
});
