import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { FORBIDDEN_NOT_MEMBER, failure, invalid } from '../../../test/helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { assertNoMismatches } from '../../../test/helpers/response-schemas.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { storedReadings, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';

// Readings from spreadsheets (extensions §13.5): a text/csv body on the readings route, read with
// the query's options. Johannesburg is UTC+02:00 all year: 00:30 there is 22:30 UTC the day before.

let t: TestApp;
let org: OrganizationWithRoles;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

async function postCsv(csv: string, query: Record<string, string>, token = org.owner.token) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${TIMESERIES}/readings`,
    query: { account_id: org.accountId, ...query },
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    payload: csv,
  });
  assertNoMismatches();
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

async function newMeter() {
  const block = await createBlock(org.owner.client, org.accountId);
  return (await createMeter(org.owner.client, org.accountId, block.id)) as { id: number; meter_sn: string };
}

/** The meter's stored readings as [ts, import_kwh, kvarh]. */
async function stored(meterId: number) {
  return (await storedReadings(t.db, meterId)).map((r) => [r.ts, r.import_kwh, r.kvarh]);
}

const JOBURG = { tz: 'Africa/Johannesburg' };

describe('POST /timeseries/electricity/readings with a CSV body', () => {
  it('reads the plain columns as the import command does', async () => {
    const meter = await newMeter();
    const csv = `meter_sn,ts,import_kwh\n${meter.meter_sn},2026-11-01T00:00:00Z,1.5\n${meter.meter_sn},2026-11-01T00:30:00Z,2\n`;
    const res = await postCsv(csv, {});
    expect([res.status, res.body.data]).toEqual([200, { inserted: 2, updated: 0 }]);
    expect(await stored(meter.id)).toEqual([
      ['2026-11-01T00:00:00.000Z', 1.5, 0],
      ['2026-11-01T00:30:00.000Z', 2, 0],
    ]);
    // The same file again replaces what it stored.
    expect((await postCsv(csv, {})).body.data).toEqual({ inserted: 0, updated: 2 });
  });

  it('maps a portal file’s columns, semicolons, decimal commas, YYYY/MM/DD dates and a separate time column', async () => {
    const meter = await newMeter();
    const csv = [
      'Meter;Date;Time;kWh;kVArh;Site',
      `${meter.meter_sn};2026/11/01;00:30;1,25;0,5;Mall`,
      `${meter.meter_sn};2026/11/01;01:00;2,75;0;Mall`,
    ].join('\r\n');
    const columns = JSON.stringify({
      meter_sn: 'meter',
      ts: 'DATE',
      time: ' Time ',
      import_kwh: 'kWh',
      kvarh: 'kvarh',
    });
    // The delimiter is found from the header line.
    const res = await postCsv(csv, { ...JOBURG, columns, date_format: 'YYYY/MM/DD', decimal: ',' });
    expect([res.status, res.body.data]).toEqual([200, { inserted: 2, updated: 0 }]);
    expect(await stored(meter.id)).toEqual([
      ['2026-10-31T22:30:00.000Z', 1.25, 0.5],
      ['2026-10-31T23:00:00.000Z', 2.75, 0],
    ]);
  });

  it('reads each date format, with the time in the date column, and the meter from the query', async () => {
    const cases: [string, string, string][] = [
      ['ISO', '2026-11-02 00:00', '2026-11-01T22:00:00.000Z'],
      ['YYYY-MM-DD HH:mm', '2026-11-02 00:30', '2026-11-01T22:30:00.000Z'],
      ['YYYY/MM/DD HH:mm:ss', '2026/11/02 01:00:00', '2026-11-01T23:00:00.000Z'],
      ['DD/MM/YYYY HH:mm', '02/11/2026 01:30', '2026-11-01T23:30:00.000Z'],
      ['MM/DD/YYYY HH:mm', '11/02/2026 02:00', '2026-11-02T00:00:00.000Z'],
    ];
    const meter = await newMeter();
    for (const [format, text] of cases) {
      const res = await postCsv(`Date\tkWh\n${text}\t3\n`, {
        ...JOBURG,
        meter_sn: meter.meter_sn,
        delimiter: 'tab',
        date_format: format,
        columns: JSON.stringify({ ts: 'Date', import_kwh: 'kWh' }),
      });
      expect([format, res.status, res.body.data]).toEqual([format, 200, { inserted: 1, updated: 0 }]);
    }
    expect((await stored(meter.id)).map(([ts]) => ts)).toEqual(cases.map(([, , utc]) => utc));
  });

  it('fails the whole file at a bad line, naming its line and column', async () => {
    const meter = await newMeter();
    const columns = JSON.stringify({ meter_sn: 'Meter', ts: 'Date', time: 'Time', import_kwh: 'kWh' });
    const options = { ...JOBURG, columns, date_format: 'DD/MM/YYYY', decimal: ',' };
    const good = `${meter.meter_sn};01/11/2026;00:00;1,5`;
    const cases: [string, string][] = [
      [
        `${good}\n${meter.meter_sn};01/11/2026;00:30;-1`,
        'line 3: import_kwh (column "kWh"): must be a number from 0 to 1000000, found "-1"',
      ],
      [
        `${good}\n${meter.meter_sn};2026-11-01;00:30;1`,
        'line 3: ts (column "Date"): not a date in the format DD/MM/YYYY, found "2026-11-01" and "00:30"',
      ],
      [`${good}\n${meter.meter_sn};01/11/2026;00:30`, 'line 3: expected 4 fields, found 3'],
      [
        `${good}\n${meter.meter_sn};01/11/2026;00:00;2`,
        `line 3: ts: meter ${meter.meter_sn} has a reading of this time on line 2 too`,
      ],
      [
        `${good}\n${meter.meter_sn};01/11/2026;00:10;2`,
        "line 3: ts: Not the start of one of the meter's 30-minute intervals",
      ],
    ];
    for (const [lines, error] of cases) {
      const res = await postCsv(`Meter;Date;Time;kWh\n${lines}\n`, options);
      expect([res.status, res.body]).toEqual([400, invalid(error)]);
    }
    expect(await stored(meter.id)).toEqual([]);
    const header = await postCsv(`Meter;Day;Time;kWh\n${good}\n`, options);
    expect([header.status, header.body]).toEqual([
      400,
      invalid('line 1: columns: no column "Date" in the header (Meter, Day, Time, kWh)'),
    ]);
    const unknownMeter = await postCsv(`Meter;Date;Time;kWh\nNO-SUCH-METER;01/11/2026;00:00;1\n`, options);
    expect([unknownMeter.status, unknownMeter.body]).toEqual([
      404,
      failure('Not found', 'Meter NO-SUCH-METER not found'),
    ]);
  });

  it('stores a file of several meters whole or not at all', async () => {
    const [first, second] = [await newMeter(), await newMeter()];
    const line = (meter: { meter_sn: string }, ts: string, kwh: number) => `${meter.meter_sn},${ts},${kwh}`;
    const header = 'meter_sn,ts,import_kwh';
    const misaligned = [
      header,
      line(first, '2026-11-01T00:00:00Z', 1),
      line(first, '2026-11-01T00:30:00Z', 2),
      line(second, '2026-11-01T00:00:00Z', 3),
      line(second, '2026-11-01T00:10:00Z', 4),
    ].join('\n');
    const refused = await postCsv(misaligned, {});
    expect([refused.status, refused.body]).toEqual([
      400,
      invalid("line 5: ts: Not the start of one of the meter's 30-minute intervals"),
    ]);
    expect([await stored(first.id), await stored(second.id)]).toEqual([[], []]);

    const whole = [header, line(second, '2026-11-01T00:00:00Z', 3), line(first, '2026-11-01T00:00:00Z', 1)];
    const res = await postCsv(whole.join('\n'), {});
    expect([res.status, res.body.data]).toEqual([200, { inserted: 2, updated: 0 }]);
    expect([await stored(first.id), await stored(second.id)]).toEqual([
      [['2026-11-01T00:00:00.000Z', 1, 0]],
      [['2026-11-01T00:00:00.000Z', 3, 0]],
    ]);
  });

  it('refuses bad options and a member who may not write', async () => {
    const meter = await newMeter();
    const csv = `meter_sn,ts,import_kwh\n${meter.meter_sn},2026-11-01T00:00:00Z,1\n`;
    const badColumns = await postCsv(csv, { columns: '{"watts":"W"}' });
    expect(badColumns.status).toBe(400);
    expect(badColumns.body.error).toMatch(/^columns: Must be a JSON object of meter_sn, ts, time/);
    const badFormat = await postCsv(csv, { date_format: 'DD.MM.YYYY' });
    expect(badFormat.status).toBe(400);
    const member = await postCsv(csv, {}, org.member.token);
    expect(member.status).toBe(403);
    const outsider = await postCsv(csv, {}, org.outsider.token);
    expect([outsider.status, outsider.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
  });
});
