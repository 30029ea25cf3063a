import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../../test/helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { assertNoMismatches } from '../../../test/helpers/response-schemas.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { insertMeter, type TestMeter } from '../../../test/helpers/timeseries-factories.ts';

// Water readings from spreadsheets: a text/csv body on the water readings route, read with the
// electricity route's options, volume_kl as the value column. Johannesburg is UTC+02:00 all year.

const WATER = '/api/v1/timeseries/water';

let t: TestApp;
let org: OrganizationWithRoles;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

async function postCsv(csv: string, query: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${WATER}/readings`,
    query: { account_id: org.accountId, ...query },
    headers: { authorization: `Bearer ${org.owner.token}`, 'content-type': 'text/csv' },
    payload: csv,
  });
  assertNoMismatches();
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

const hourly = () => insertMeter(t.db, org.accountId, { meter_type: 'WATER', interval_minutes: 60 });

/** The meter's kL per hour of [start, end), as the volume profile answers them. */
async function volumes(meter: TestMeter, start: string, end: string) {
  const res = await org.member.client.get(`${WATER}/volume-profile`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    start,
    end,
    bucket_minutes: 60,
  });
  expect(res.status).toBe(200);
  return res.body.data.map((p: { ts: string; volume_kl: number }) => [p.ts, p.volume_kl]);
}

describe('POST /timeseries/water/readings with a CSV body', () => {
  it('stores the volume_kl column of a file in the default columns, meters named on each line', async () => {
    const [a, b] = [await hourly(), await hourly()];
    const csv = [
      'meter_sn,ts,volume_kl',
      `${a.meter_sn},2025-03-01T00:00:00Z,1.5`,
      `${a.meter_sn},2025-03-01T01:00:00Z,0.25`,
      `${b.meter_sn},2025-03-01T00:00:00Z,3`,
      '',
    ].join('\n');
    const res = await postCsv(csv, {});
    expect(res).toEqual({ status: 200, body: { success: true, message: null, data: { inserted: 3, updated: 0 } } });
    expect(await volumes(a, '2025-03-01T00:00:00Z', '2025-03-01T02:00:00Z')).toEqual([
      ['2025-03-01T00:00:00.000Z', 1.5],
      ['2025-03-01T01:00:00.000Z', 0.25],
    ]);
    expect(await volumes(b, '2025-03-01T00:00:00Z', '2025-03-01T01:00:00Z')).toEqual([['2025-03-01T00:00:00.000Z', 3]]);
    // The same file again replaces what it stored.
    expect((await postCsv(csv, {})).body.data).toEqual({ inserted: 0, updated: 3 });
  });

  it("reads a municipality's export: its own columns, semicolons, decimal commas, local dates", async () => {
    const meter = await hourly();
    const csv = ['Datum;Tyd;kL;Note', '01/03/2025;02:00;1,75;x', '01/03/2025;03:00;0,5;'].join('\r\n');
    const res = await postCsv(csv, {
      meter_sn: meter.meter_sn,
      columns: '{"ts":"Datum","time":"Tyd","volume_kl":"kL"}',
      delimiter: ';',
      decimal: ',',
      date_format: 'DD/MM/YYYY HH:mm',
      tz: 'Africa/Johannesburg',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ inserted: 2, updated: 0 });
    // 02:00 and 03:00 in Johannesburg are 00:00 and 01:00 UTC.
    expect(await volumes(meter, '2025-03-01T00:00:00Z', '2025-03-01T02:00:00Z')).toEqual([
      ['2025-03-01T00:00:00.000Z', 1.75],
      ['2025-03-01T01:00:00.000Z', 0.5],
    ]);
  });

  it('refuses the whole file for a bad line, naming it as volume_kl, and an electricity meter', async () => {
    const meter = await hourly();
    const bad = await postCsv(['Date,kL', '2025-03-01T00:00:00Z,1', '2025-03-01T01:00:00Z,lots'].join('\n'), {
      meter_sn: meter.meter_sn,
      columns: '{"ts":"Date","volume_kl":"kL"}',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(
      invalid('line 3: volume_kl (column "kL"): must be a number from 0 to 1000000, found "lots"'),
    );
    expect(await volumes(meter, '2025-03-01T00:00:00Z', '2025-03-01T02:00:00Z')).toEqual([]);

    const misaligned = await postCsv(['ts,volume_kl', '2025-03-01T00:30:00Z,1'].join('\n'), {
      meter_sn: meter.meter_sn,
    });
    expect(misaligned.status).toBe(400);
    expect(misaligned.body.error).toMatch(/^line 2: ts: /);

    // A meter's misaligned line refuses the other meters' lines of the file too.
    const other = await hourly();
    const mixed = await postCsv(
      [
        'meter_sn,ts,volume_kl',
        `${meter.meter_sn},2025-03-01T00:00:00Z,1`,
        `${other.meter_sn},2025-03-01T00:30:00Z,1`,
      ].join('\n'),
      {},
    );
    expect([mixed.status, mixed.body.error]).toEqual([
      400,
      "line 3: ts: Not the start of one of the meter's 60-minute intervals",
    ]);
    expect(await volumes(meter, '2025-03-01T00:00:00Z', '2025-03-01T02:00:00Z')).toEqual([]);

    const electricity = await insertMeter(t.db, org.accountId);
    const wrong = await postCsv(['ts,volume_kl', '2025-03-01T00:00:00Z,1'].join('\n'), {
      meter_sn: electricity.meter_sn,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe(`meter_sn: Meter ${electricity.meter_sn} is not a water meter`);

    const unknownField = await postCsv('ts,volume_kl\n', { columns: '{"import_kwh":"kWh"}' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error).toBe(
      'columns: Must be a JSON object of meter_sn, ts, time, volume_kl to column names',
    );
  });
});

describe('the text/csv body of the API reference', () => {
  it('is stored as the reference states it, with the example options of its query', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body);
    const operation = doc.paths[`${WATER}/readings`].post;
    const query = Object.fromEntries(
      operation.parameters
        .filter((p: { in: string; name: string }) => p.in === 'query' && p.name !== 'account_id')
        .map((p: { name: string; schema: { example: unknown } }) => [p.name, String(p.schema.example)]),
    );
    const meter = await insertMeter(t.db, org.accountId, { meter_type: 'WATER', meter_sn: query.meter_sn });
    const res = await postCsv(operation.requestBody.content['text/csv'].example, query);
    expect(res).toEqual({ status: 200, body: { success: true, message: null, data: { inserted: 2, updated: 0 } } });
    // 1 November 2026 00:00 in Johannesburg is 31 October 22:00 UTC.
    expect(await volumes(meter, '2026-10-31T22:00:00Z', '2026-10-31T23:00:00Z')).toEqual([
      ['2026-10-31T22:00:00.000Z', 0.75],
    ]);
  });
});
