import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FORBIDDEN_NOT_MEMBER,
  FORBIDDEN_ROLE,
  failure,
  forbidden,
  invalid,
  notFound,
  ownedByAnother,
} from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { gatewayClientFor } from '../../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { insertMeter, storedReadings, type TestMeter, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let wired: TestMeter;
let unwired: TestMeter;
let foreign: TestMeter;
beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  wired = await insertMeter(t.db, org.accountId);
  unwired = await insertMeter(t.db, org.accountId);
  foreign = await insertMeter(t.db, org.otherAccountId);
});
afterAll(async () => t.close());

const base = '/api/v1/gateways';
const READINGS = `${TIMESERIES}/readings`;
const TS = '2026-03-01T00:00:00.000Z';
const KEY = /^ugw_[A-Za-z0-9_-]{32}$/;
const INVALID_KEY = failure('Authentication required', 'Invalid bearer token');

async function createGateway(meterIds: number[] = [wired.id], name = 'Main DB logger') {
  const res = await org.owner.client.post(base, { account_id: org.accountId, name, meter_ids: meterIds });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; key: string; meter_ids: number[]; last_seen_at: string | null };
}

const push = (key: string, meter: TestMeter, extra: Record<string, unknown> = {}) =>
  gatewayClientFor(t.app, key).post(READINGS, {
    meter_sn: meter.meter_sn,
    readings: [{ ts: TS, import_kwh: 2 }],
    ...extra,
  });

const keyHashOf = async (id: number) =>
  (await t.db.query<{ key_hash: Buffer }>('SELECT key_hash FROM gateways WHERE id = $1', [id]))[0]!.key_hash;

describe('POST /gateways', () => {
  it('creates a gateway and answers its key once, stored as its SHA-256 only', async () => {
    const res = await org.owner.client.post(base, {
      account_id: org.accountId,
      name: ' Main DB logger ',
      description: 'Modbus concentrator',
      meter_ids: [unwired.id, wired.id],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: {
        id: expect.any(Number),
        account_id: org.accountId,
        name: 'Main DB logger',
        description: 'Modbus concentrator',
        meter_ids: [wired.id, unwired.id].sort((a, b) => a - b),
        last_seen_at: null,
        revoked_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        key: expect.stringMatching(KEY),
      },
    });
    const { id, key } = res.body.data;
    expect(Buffer.from(await keyHashOf(id))).toEqual(createHash('sha256').update(key).digest());
    const stored = await t.db.query('SELECT * FROM gateways WHERE id = $1', [id]);
    expect(JSON.stringify(stored)).not.toContain(key.slice(4));
  });

  it('makes a new random key for every gateway', async () => {
    const keys = await Promise.all([createGateway([]), createGateway([])]);
    expect(keys[0]!.key).not.toBe(keys[1]!.key);
  });

  it('lets an ADMIN create, without meters and without a description', async () => {
    const res = await org.admin.client.post(base, { account_id: org.accountId, name: 'Spare', meter_ids: [] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ description: null, meter_ids: [] });
  });

  it('refuses a MEMBER (403) and a non-member (403)', async () => {
    const body = { account_id: org.accountId, name: 'X', meter_ids: [] };
    expect((await org.member.client.post(base, body)).body).toEqual(FORBIDDEN_ROLE);
    expect((await org.outsider.client.post(base, body)).body).toEqual(FORBIDDEN_NOT_MEMBER);
  });

  it('refuses meters of another organization and unknown meters: 400 naming meter_ids', async () => {
    const res = await org.owner.client.post(base, {
      account_id: org.accountId,
      name: 'X',
      meter_ids: [wired.id, foreign.id, 999_999],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      invalid(
        `meter_ids.1: Meter ${foreign.id} not found in this organization; meter_ids.2: Meter 999999 not found in this organization`,
      ),
    );
  });

  it.each([
    [{ meter_ids: [1, 1] }, 'meter_ids: Must not name a meter twice'],
    [{ meter_ids: undefined }, 'meter_ids: Invalid input: expected array, received undefined'],
    [{ name: '' }, 'name: Too small: expected string to have >=1 characters'],
    [{ key: 'ugw_mine' }, 'key: Unrecognized key "key"'],
  ])('refuses the body %j: 400', async (override, error) => {
    const res = await org.owner.client.post(base, { account_id: org.accountId, name: 'X', meter_ids: [], ...override });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(error);
  });
});

describe('GET /gateways', () => {
  it('lists the organization’s gateways as pages, never their keys; a MEMBER reads', async () => {
    const gateway = await createGateway([wired.id], 'Listed logger');
    const res = await org.member.client.get(base, { account_id: org.accountId, query: 'listed', limit: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      count: 1,
      data: [expect.objectContaining({ id: gateway.id, name: 'Listed logger', meter_ids: [wired.id] })],
    });
    expect(res.body.data[0]).not.toHaveProperty('key');
    const page = await org.member.client.get(base, { account_id: org.accountId, limit: 1, sortBy: 'last_seen_at' });
    expect(page.body.data).toHaveLength(1);
    expect(page.body.count).toBeGreaterThan(1);
  });

  it('refuses a non-member: 403', async () => {
    expect((await org.outsider.client.get(base, { account_id: org.accountId })).body).toEqual(FORBIDDEN_NOT_MEMBER);
  });
});

describe('GET, PUT, DELETE /gateways/:id', () => {
  it('reads one gateway without its key; 404 unknown, 403 another organization’s', async () => {
    const gateway = await createGateway();
    const res = await org.member.client.get(`${base}/${gateway.id}`, { account_id: org.accountId });
    expect(res.status).toBe(200);
    const { key: _key, ...stored } = gateway;
    expect(res.body.data).toEqual(stored);
    expect((await org.member.client.get(`${base}/999999`, { account_id: org.accountId })).body).toEqual(
      notFound('Gateway'),
    );
    const theirs = await org.outsider.client.post(base, { account_id: org.otherAccountId, name: 'T', meter_ids: [] });
    const res403 = await org.owner.client.get(`${base}/${theirs.body.data.id}`, { account_id: org.accountId });
    expect(res403.body).toEqual(ownedByAnother('Gateway'));
  });

  it('updates name, description and meters; the key stays', async () => {
    const gateway = await createGateway();
    const res = await org.admin.client.put(`${base}/${gateway.id}`, {
      account_id: org.accountId,
      name: 'Renamed',
      description: 'Moved to the plant room',
      meter_ids: [unwired.id],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Renamed',
      description: 'Moved to the plant room',
      meter_ids: [unwired.id],
    });
    expect(res.body.data).not.toHaveProperty('key');
    expect((await push(gateway.key, unwired)).status).toBe(200);
    expect((await push(gateway.key, wired)).body).toEqual(
      forbidden(`Meter ${wired.meter_sn} is not wired to this gateway`),
    );
  });

  it('refuses a MEMBER’s update (403) and another organization’s meter (400)', async () => {
    const gateway = await createGateway();
    const url = `${base}/${gateway.id}`;
    expect((await org.member.client.put(url, { account_id: org.accountId, name: 'Mine' })).body).toEqual(
      FORBIDDEN_ROLE,
    );
    const res = await org.owner.client.put(url, { account_id: org.accountId, meter_ids: [foreign.id] });
    expect(res.body).toEqual(invalid(`meter_ids.0: Meter ${foreign.id} not found in this organization`));
  });

  it('deletes a gateway (204): it is gone and its key opens nothing', async () => {
    const gateway = await createGateway();
    expect((await org.member.client.delete(`${base}/${gateway.id}`, { account_id: org.accountId })).body).toEqual(
      FORBIDDEN_ROLE,
    );
    const res = await org.owner.client.delete(`${base}/${gateway.id}`, { account_id: org.accountId });
    expect(res.status).toBe(204);
    expect((await org.owner.client.get(`${base}/${gateway.id}`, { account_id: org.accountId })).status).toBe(404);
    expect((await push(gateway.key, wired)).body).toEqual(INVALID_KEY);
  });

  it('forgets a deleted meter', async () => {
    const meter = await insertMeter(t.db, org.accountId);
    const gateway = await createGateway([wired.id, meter.id]);
    const del = await org.owner.client.delete(`/api/v1/meters/${meter.id}`, { account_id: org.accountId });
    expect(del.status).toBe(204);
    const res = await org.owner.client.get(`${base}/${gateway.id}`, { account_id: org.accountId });
    expect(res.body.data.meter_ids).toEqual([wired.id]);
  });
});

describe('POST /gateways/:id/rotate-key', () => {
  it('answers a new key (201); the old one is refused at once, the new one works', async () => {
    const gateway = await createGateway();
    expect((await push(gateway.key, wired)).status).toBe(200);
    const res = await org.admin.client.post(`${base}/${gateway.id}/rotate-key?account_id=${org.accountId}`);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: gateway.id, key: expect.stringMatching(KEY) });
    expect(res.body.data.key).not.toBe(gateway.key);
    expect((await push(gateway.key, wired)).body).toEqual(INVALID_KEY);
    expect((await push(res.body.data.key, wired)).status).toBe(200);
  });

  it('refuses a MEMBER: 403', async () => {
    const gateway = await createGateway();
    const res = await org.member.client.post(`${base}/${gateway.id}/rotate-key?account_id=${org.accountId}`);
    expect(res.body).toEqual(FORBIDDEN_ROLE);
    expect((await push(gateway.key, wired)).status).toBe(200);
  });
});

describe('authorization: Gateway <key>', () => {
  it('stores readings of its meters without account_id and sets last_seen_at', async () => {
    const meter = await insertMeter(t.db, org.accountId);
    const gateway = await createGateway([meter.id]);
    const res = await push(gateway.key, meter);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: null, data: { inserted: 1, updated: 0 } });
    expect(await storedReadings(t.db, meter.id)).toEqual([
      { ts: TS, import_kwh: 2, export_kwh: 0, kvarh: 0, power_kw: 4, kva: 4 },
    ]);
    const read = await org.member.client.get(`${base}/${gateway.id}`, { account_id: org.accountId });
    expect(read.body.data.last_seen_at).toEqual(expect.any(String));
  });

  it('takes its own organization’s account_id, and refuses another: 403', async () => {
    const gateway = await createGateway();
    expect((await push(gateway.key, wired, { account_id: org.accountId.toUpperCase() })).status).toBe(200);
    expect((await push(gateway.key, wired, { account_id: org.otherAccountId })).body).toEqual(
      forbidden('The gateway belongs to another organization'),
    );
  });

  it('refuses another meter of its organization (403) and a meter of another organization (403)', async () => {
    const gateway = await createGateway();
    const other = await insertMeter(t.db, org.accountId);
    expect((await push(gateway.key, other)).body).toEqual(
      forbidden(`Meter ${other.meter_sn} is not wired to this gateway`),
    );
    expect((await push(gateway.key, foreign)).body).toEqual(
      forbidden(`Meter ${foreign.meter_sn} belongs to another organization`),
    );
    expect(await storedReadings(t.db, other.id)).toEqual([]);
    expect(await storedReadings(t.db, foreign.id)).toEqual([]);
  });

  it('does not set last_seen_at for a refused push', async () => {
    const gateway = await createGateway();
    await push(gateway.key, unwired);
    const read = await org.member.client.get(`${base}/${gateway.id}`, { account_id: org.accountId });
    expect(read.body.data.last_seen_at).toBeNull();
  });

  it('is refused on every other route: 401', async () => {
    const gateway = await createGateway();
    const client = gatewayClientFor(t.app, gateway.key);
    for (const res of [
      await client.get(base, { account_id: org.accountId }),
      await client.get('/api/v1/meters', { account_id: org.accountId }),
      await client.get(`${TIMESERIES}/energy-sum`, {
        account_id: org.accountId,
        meter_sn: wired.meter_sn,
        start: TS,
        end: '2026-03-02T00:00:00.000Z',
      }),
      await client.post(`${base}/${gateway.id}/rotate-key?account_id=${org.accountId}`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID_KEY);
    }
  });

  it('refuses an unknown key, a key without its prefix and an empty one: 401', async () => {
    for (const key of ['ugw_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'not-a-gateway-key', `ugw_${'A'.repeat(200)}`]) {
      expect((await push(key, wired)).body).toEqual(INVALID_KEY);
    }
  });

  it('still needs account_id with a person’s token: 400', async () => {
    const res = await org.owner.client.post(READINGS, {
      meter_sn: wired.meter_sn,
      readings: [{ ts: TS, import_kwh: 1 }],
    });
    expect(res.body).toEqual(invalid('account_id: Invalid input: expected string, received undefined'));
  });
});
