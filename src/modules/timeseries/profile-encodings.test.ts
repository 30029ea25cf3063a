import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { at, ingest, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';

let t: TestApp;
let org: OrganizationWithRoles;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(() => t.close());

const DAY = { start: '2025-06-01T00:00:00Z', end: '2025-06-02T00:00:00Z' };
type Meter = { id: number; meter_sn: string };

/** A meter with a reading in each half hour of DAY: its 30-minute profile is some 5 KB of JSON. */
async function meterWithDay(): Promise<Meter> {
  const blockId = (await createBlock(org.owner.client, org.accountId)).id;
  const meter: Meter = await createMeter(org.owner.client, org.accountId, blockId);
  const readings = Array.from({ length: 48 }, (_, i) => ({ ts: at(DAY.start, i * 30), import_kwh: i + 0.5 }));
  await ingest(org.owner.client, org.accountId, meter.meter_sn, readings);
  return meter;
}

/** The raw answer to the member's request for path, with accept-encoding when given. */
async function fetchRaw(path: string, query: Record<string, string>, acceptEncoding?: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: path,
    query: { account_id: org.accountId, ...query },
    headers: {
      authorization: `Bearer ${org.member.token}`,
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
    },
  });
  expect(res.statusCode).toBe(200);
  return { encoding: res.headers['content-encoding'], vary: res.headers.vary, bytes: res.rawPayload };
}

const profileOf = (meter: Meter, acceptEncoding?: string, range = DAY) =>
  fetchRaw(`${TIMESERIES}/energy-profile`, { meter_sn: meter.meter_sn, ...range }, acceptEncoding);

const decoded = ({ encoding, bytes }: { encoding: unknown; bytes: Buffer }) =>
  encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;

/** How many bodies of kept answers the service has made in this encoding, as /metrics says. */
async function bodiesMade(encoding: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  const match = new RegExp(`^ums_kept_answer_bodies_total\\{encoding="${encoding}"\\} (\\S+)$`, 'm').exec(res.body);
  return match ? Number(match[1]) : 0;
}

/**
 * Asks for the meter's profile until it is served kept: no new body made for the request. On
 * PostgreSQL an ingest's meter stays uncached until the service hears its own commit notice, and
 * each request until then computes the profile afresh.
 */
async function untilKept(meter: Meter): Promise<void> {
  for (;;) {
    const before = await bodiesMade('identity');
    await profileOf(meter);
    if ((await bodiesMade('identity')) === before) return;
  }
}

describe('profiles sent as bytes made once per kept result and encoding', () => {
  it('sends brotli and gzip that decompress to exactly the uncompressed answer, and identity without accept-encoding', async () => {
    const meter = await meterWithDay();
    const plain = await profileOf(meter);
    expect(plain.encoding).toBeUndefined();
    expect(plain.vary).toBe('accept-encoding');
    const body = JSON.parse(plain.bytes.toString());
    expect(body.data).toHaveLength(48);
    expect(body.data[47]).toEqual({
      ts: '2025-06-01T23:30:00.000Z',
      import_kwh: 47.5,
      export_kwh: 0,
      net_kwh: 47.5,
      kvarh: 0,
    });
    const br = await profileOf(meter, 'br, gzip');
    expect([br.encoding, br.vary]).toEqual(['br', 'accept-encoding']);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 3);
    expect(decoded(br).equals(plain.bytes)).toBe(true);
    const gzip = await profileOf(meter, 'gzip');
    expect([gzip.encoding, gzip.vary]).toEqual(['gzip', 'accept-encoding']);
    expect(decoded(gzip).equals(plain.bytes)).toBe(true);
  });

  it("follows the client's accept-encoding and its q-values", async () => {
    const meter = await meterWithDay();
    const chosen = async (acceptEncoding: string) => (await profileOf(meter, acceptEncoding)).encoding ?? 'identity';
    expect(await chosen('gzip, deflate, br')).toBe('br');
    expect(await chosen('br;q=0, gzip')).toBe('gzip');
    expect(await chosen('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(await chosen('identity')).toBe('identity');
    expect(await chosen('deflate')).toBe('identity');
    expect(await chosen('br;q=0, gzip;q=0')).toBe('identity');
    expect(await chosen('*')).toBe('gzip');
    expect(await chosen('')).toBe('identity');
  });

  it('sends an answer under 1 KB uncompressed', async () => {
    const meter = await meterWithDay();
    const small = await profileOf(meter, 'br', { start: DAY.start, end: at(DAY.start, 60) });
    expect(small.encoding).toBeUndefined();
    expect(JSON.parse(small.bytes.toString()).data.map((b: { import_kwh: number }) => b.import_kwh)).toEqual([
      0.5, 1.5,
    ]);
  });

  it('compresses a kept profile once: the second request gets the same bytes without compressing again', async () => {
    const meter = await meterWithDay();
    await untilKept(meter);
    const before = { br: await bodiesMade('br'), gzip: await bodiesMade('gzip') };
    const first = await profileOf(meter, 'br');
    const second = await profileOf(meter, 'br');
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(await bodiesMade('br')).toBe(before.br + 1);
    await profileOf(meter, 'gzip');
    await profileOf(meter, 'gzip');
    expect(await bodiesMade('gzip')).toBe(before.gzip + 1);
  });

  it('never sends the bytes of a profile after its readings changed', async () => {
    const meter = await meterWithDay();
    const imported = async () => {
      const res = await profileOf(meter, 'br');
      expect(res.encoding).toBe('br');
      return JSON.parse(decoded(res).toString()).data.map((b: { import_kwh: number }) => b.import_kwh);
    };
    const kept = await imported();
    expect(kept[3]).toBe(3.5);
    expect(await imported()).toEqual(kept);
    const made = await bodiesMade('br');
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(DAY.start, 90), import_kwh: 9 }]);
    const after = await imported();
    expect(after[3]).toBe(9);
    expect(after.toSpliced(3, 1)).toEqual(kept.toSpliced(3, 1));
    expect(await bodiesMade('br')).toBe(made + 1);
  });

  it("sends a meter's power profile and a building's energy profile compressed too", async () => {
    const meter = await meterWithDay();
    const power = await fetchRaw(`${TIMESERIES}/power-profile`, { meter_sn: meter.meter_sn, ...DAY }, 'br');
    expect(power.encoding).toBe('br');
    expect(JSON.parse(decoded(power).toString()).data).toHaveLength(48);
    const blockId = (await createBlock(org.owner.client, org.accountId)).id;
    const grid = await createMeter(org.owner.client, org.accountId, blockId);
    const config = await org.owner.client.put(`/api/v1/building_blocks/${blockId}/config`, {
      account_id: org.accountId,
      grid_meter_id: grid.id,
    });
    expect(config.status).toBe(200);
    const readings = Array.from({ length: 48 }, (_, i) => ({ ts: at(DAY.start, i * 30), import_kwh: 1 }));
    await ingest(org.owner.client, org.accountId, grid.meter_sn, readings);
    const building = await fetchRaw(`/api/v1/building_blocks/${blockId}/energy-profile`, DAY, 'gzip');
    expect(building.encoding).toBe('gzip');
    const buckets = JSON.parse(decoded(building).toString()).data;
    expect(buckets).toHaveLength(48);
    expect(buckets[0].sources.grid.import_kwh).toBe(1);
  });
});
