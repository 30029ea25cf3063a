import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../../test/helpers/factories.ts';
import { gatewayClientFor, type Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, startRaceWorld, summary } from '../../../test/helpers/races.ts';
import { secondProcess } from '../../../test/helpers/second-process.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { insertMeter, type TestMeter, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';

const base = '/api/v1/gateways';
const READINGS = `${TIMESERIES}/readings`;

describe.runIf(onPostgres)('gateways under concurrent requests and processes (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  let meter: TestMeter;
  let other: Awaited<ReturnType<typeof secondProcess>>;
  beforeAll(async () => {
    ({ t, owner, accountId } = await startRaceWorld());
    meter = await insertMeter(t.db, accountId);
    other = await secondProcess(t.databaseUrl!, owner);
  });
  afterAll(async () => {
    await other?.close();
    await t.close();
  });

  async function createGateway(meterIds: number[]) {
    const res = await owner.client.post(base, { account_id: accountId, name: 'Logger', meter_ids: meterIds });
    if (res.status !== 201) throw new Error(`gateway create failed: ${JSON.stringify(res.body)}`);
    return res.body.data as { id: number; key: string };
  }

  /** One reading at the round's own half hour, so that every push stores a row. */
  const push = (app: TestApp['app'], key: string, round: number) =>
    gatewayClientFor(app, key).post(READINGS, {
      meter_sn: meter.meter_sn,
      readings: [{ ts: new Date(Date.UTC(2026, 0, 1) + round * 1_800_000).toISOString(), import_kwh: 1 }],
    });

  it('refuses a key on another process as soon as its rotation or delete is answered, with a warm cache there', async () => {
    const wrong: string[] = [];
    const violations = await countViolations(async (round) => {
      const gateway = await createGateway([meter.id]);
      // The other process has just accepted the key (whatever it keeps of the organization is warm).
      const before = await push(other.app, gateway.key, round);
      const rotated = await owner.client.post(`${base}/${gateway.id}/rotate-key?account_id=${accountId}`);
      const old = await push(other.app, gateway.key, round);
      const fresh = await push(other.app, rotated.body.data.key, round);
      await owner.client.delete(`${base}/${gateway.id}`, { account_id: accountId });
      const deleted = await push(other.app, rotated.body.data.key, round);
      const answers = [before, rotated, old, fresh, deleted].map((r) => r.status);
      if (answers.join() !== '200,201,401,200,401') wrong.push(answers.join());
      return answers.join() !== '200,201,401,200,401';
    }, 20);
    expect(wrong).toEqual([]);
    expect(violations).toBe(0);
  });

  it('stores a push racing its key’s rotation before the rotation commits, or refuses it: never after', async () => {
    const unexpected: string[] = [];
    const violations = await countViolations(async (round) => {
      const gateway = await createGateway([meter.id]);
      const [pushed, rotated] = await Promise.all([
        push(other.app, gateway.key, round),
        owner.client.post(`${base}/${gateway.id}/rotate-key?account_id=${accountId}`),
      ]);
      if (![200, 401].includes(pushed.status) || rotated.status !== 201) {
        unexpected.push(`${summary(pushed)} / ${summary(rotated)}`);
      }
      // A push stored with the old key set last_seen_at in the transaction the rotation waited for.
      const [row] = await t.db.query<{ seen: boolean }>(
        'SELECT last_seen_at IS NOT NULL AS seen FROM gateways WHERE id = $1',
        [gateway.id],
      );
      return row!.seen !== (pushed.status === 200);
    });
    expect(unexpected).toEqual([]);
    expect(violations).toBe(0);
  });

  it('never leaves a gateway naming a meter deleted while its meters were set', async () => {
    const unexpected: string[] = [];
    const violations = await countViolations(async () => {
      const doomed = await insertMeter(t.db, accountId);
      const gateway = await createGateway([]);
      const [put, del]: [Reply, Reply] = await Promise.all([
        owner.client.put(`${base}/${gateway.id}`, { account_id: accountId, meter_ids: [meter.id, doomed.id] }),
        owner.client.delete(`/api/v1/meters/${doomed.id}`, { account_id: accountId }),
      ]);
      const refusedNaming = `meter_ids.1: Meter ${doomed.id} not found in this organization`;
      if (!(put.status === 200 || (put.status === 400 && put.body.error === refusedNaming)) || del.status !== 204) {
        unexpected.push(`${summary(put)} / ${summary(del)}`);
      }
      const read = await owner.client.get(`${base}/${gateway.id}`, { account_id: accountId });
      return read.body.data.meter_ids.includes(doomed.id);
    });
    expect(unexpected).toEqual([]);
    expect(violations).toBe(0);
  });
});
