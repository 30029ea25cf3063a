import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../../test/helpers/factories.ts';
import { countViolations, onPostgres, startRaceWorld, summary } from '../../../test/helpers/races.ts';
import { secondProcess } from '../../../test/helpers/second-process.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { insertMeter, storedReadings, type TestMeter, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';
import type { App } from '../../http/types.ts';

// Two processes store readings files of the same two meters at once, one naming them in the other
// order: each file is stored in one transaction, its meters locked in the order of their ids, so
// neither waits for the other's lock while holding one it needs (a deadlock, one file refused).

const ROUNDS = 20;
const HALF_HOURS = 48;

let t: TestApp;
let owner: TestUser;
let accountId: string;
let other: Awaited<ReturnType<typeof secondProcess>> | undefined;
let otherToken: string;

beforeAll(async () => {
  ({ t, owner, accountId } = await startRaceWorld());
  if (!onPostgres) return;
  other = await secondProcess(t.databaseUrl!, owner);
  const login = await other.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: owner.email, password: owner.password },
  });
  otherToken = login.json().data.access_token;
});
afterAll(async () => {
  await other?.close();
  await t.close();
});

/** A day of half-hour readings of each meter, meter after meter, every one of value kwh. */
function file(meters: readonly TestMeter[], kwh: number): string {
  const day = Date.parse('2026-10-01T00:00:00Z');
  const lines = meters.flatMap((meter) =>
    Array.from(
      { length: HALF_HOURS },
      (_, i) => `${meter.meter_sn},${new Date(day + i * 1_800_000).toISOString()},${kwh}`,
    ),
  );
  return ['meter_sn,ts,import_kwh', ...lines].join('\n');
}

async function postCsv(app: App, token: string, csv: string) {
  const res = await app.inject({
    method: 'POST',
    url: `${TIMESERIES}/readings`,
    query: { account_id: accountId },
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    payload: csv,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

describe.runIf(onPostgres)('readings files of the same meters stored by two processes at once', () => {
  it('are both stored whole, whatever order they name the meters in', async () => {
    const wrong: string[] = [];
    const violations = await countViolations(async () => {
      const meters = [await insertMeter(t.db, accountId), await insertMeter(t.db, accountId)];
      const [here, there] = await Promise.all([
        postCsv(t.app, owner.token, file(meters, 1)),
        postCsv(other!.app, otherToken, file([...meters].reverse(), 2)),
      ]);
      const values = await Promise.all(
        meters.map(async (meter) => (await storedReadings(t.db, meter.id)).map((r) => r.import_kwh)),
      );
      // One file's values in full, for both meters: the one committed last.
      const whole = values.flat().every((kwh) => kwh === values[0]![0]) && values.flat().length === 2 * HALF_HOURS;
      const ok = here.status === 200 && there.status === 200 && whole;
      if (!ok) wrong.push(`${summary(here)} / ${summary(there)} / whole ${whole}`);
      return !ok;
    }, ROUNDS);
    expect(wrong).toEqual([]);
    expect(violations).toBe(0);
  });
});
