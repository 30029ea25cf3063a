import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid, invalidQuery } from '../helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../helpers/factories.ts';
import { call } from '../helpers/http.ts';
import { createTariff } from '../helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { insertMeter, TIMESERIES } from '../helpers/timeseries-factories.ts';

/**
 * Every field that takes a date or a date-time reads it the same way (extensions §12.1): an offset
 * up to ±15:59 (what PostgreSQL reads), instants from 1900-01-01T00:00:00Z up to 9999-01-01T00:00:00Z,
 * dates of the years 1900 to 9999; anything else is a 400 naming the field, never a 500.
 */
let t: TestApp;
let r: OrganizationWithRoles;
let predecessorId: number;
let successorId: number;
let meterSn: string;
let blockId: number;

beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
  predecessorId = (await createTariff(r.owner.client, r.accountId)).id;
  successorId = (await createTariff(r.owner.client, r.accountId)).id;
  const meter = await insertMeter(t.db, r.accountId);
  meterSn = meter.meter_sn;
  const [block] = await t.db.query<{ id: number }>('SELECT building_block_id AS id FROM meters WHERE id = $1', [
    meter.id,
  ]);
  blockId = block!.id;
});
afterAll(async () => t.close());

const OFFSET = 'The offset must be between -15:59 and +15:59';
const YEARS = 'Must be between 1900 and 9999';

type Send = (value: string) => Promise<{ status: number; body: unknown }>;

/** The sends whose field is a query parameter: refused as `Invalid query`, a body's as `Invalid request body`. */
const IN_QUERY = new WeakSet<Send>();
const inQuery = (send: Send): Send => {
  IN_QUERY.add(send);
  return send;
};
const refusal = (send: Send, error: string) => (IN_QUERY.has(send) ? invalidQuery(error) : invalid(error));

/** Each field that takes a date-time, and how a request sends a value in it. */
const DATE_TIME_FIELDS: [string, Send][] = [
  [
    'effective_from',
    (value) =>
      r.owner.client.post(`/api/v1/tariffs/${predecessorId}/transitions`, {
        account_id: r.accountId,
        successor_id: successorId,
        effective_from: value,
      }),
  ],
  [
    'effective_from',
    (value) =>
      r.owner.client.put(`/api/v1/tariffs/${predecessorId}/transitions`, {
        account_id: r.accountId,
        effective_from: value,
      }),
  ],
  [
    'deleted_at',
    (value) => r.owner.client.put(`/api/v1/tariffs/${predecessorId}`, { account_id: r.accountId, deleted_at: value }),
  ],
  [
    'start',
    inQuery((value) =>
      r.owner.client.get(`/api/v1/tariffs/${predecessorId}/cost`, {
        account_id: r.accountId,
        meter_sn: meterSn,
        start: value,
        end: '2026-02-01T00:00:00Z',
      }),
    ),
  ],
  [
    'end',
    inQuery((value) =>
      r.owner.client.get(`/api/v1/building_blocks/${blockId}/energy-cost`, {
        account_id: r.accountId,
        start: '2026-01-01T00:00:00Z',
        end: value,
      }),
    ),
  ],
  [
    'start',
    inQuery((value) =>
      r.owner.client.get(`${TIMESERIES}/energy-sum`, {
        account_id: r.accountId,
        meter_sn: meterSn,
        start: value,
        end: '9998-12-31T00:00:00Z',
      }),
    ),
  ],
  [
    'end',
    inQuery((value) =>
      r.owner.client.get(`/api/v1/building_blocks/${blockId}/energy-profile`, {
        account_id: r.accountId,
        start: '2025-12-01T00:00:00Z',
        end: value,
        bucket_minutes: 1440,
      }),
    ),
  ],
  [
    'start',
    (value) =>
      r.owner.client.post(`${TIMESERIES}/energy-sums`, {
        account_id: r.accountId,
        meter_sns: [meterSn],
        start: value,
        end: '9998-12-31T00:00:00Z',
      }),
  ],
  [
    'readings.0.ts',
    (value) =>
      r.owner.client.post(`${TIMESERIES}/readings`, {
        account_id: r.accountId,
        meter_sn: meterSn,
        readings: [{ ts: value, import_kwh: 1 }],
      }),
  ],
];

describe('a date-time in any field', () => {
  it.each(DATE_TIME_FIELDS.map(([field, send], n) => [n, field, send] as const))(
    '#%i %s: an offset beyond ±15:59 is a 400 naming the field',
    async (_n, field, send) => {
      for (const value of ['2026-01-01T00:00:00+16:00', '2026-01-01T00:00:00-16:00', '2026-01-01T00:00:00+23:59']) {
        const res = await send(value);
        expect([value, res.status, res.body]).toEqual([value, 400, refusal(send, `${field}: ${OFFSET}`)]);
      }
    },
  );

  it.each(DATE_TIME_FIELDS.map(([field, send], n) => [n, field, send] as const))(
    '#%i %s: an instant before 1900 or from 9999 on is a 400 naming the field',
    async (_n, field, send) => {
      for (const value of [
        '0001-01-01T00:00:00Z',
        '1899-12-31T23:59:59.999Z',
        '1900-01-01T00:30:00+01:00',
        '9999-01-01T00:00:00Z',
        '9999-12-31T23:59:59Z',
      ]) {
        const res = await send(value);
        expect([value, res.status, res.body]).toEqual([value, 400, refusal(send, `${field}: ${YEARS}`)]);
      }
    },
  );

  it('accepts offsets of ±15:59 and the first and last instants, and stores them as the instants they name', async () => {
    const [from, to, deletedId] = await Promise.all(
      [1, 2, 3].map(async () => (await createTariff(r.owner.client, r.accountId)).id),
    );
    const created = await r.owner.client.post(`/api/v1/tariffs/${from}/transitions`, {
      account_id: r.accountId,
      successor_id: to,
      effective_from: '2030-04-01T00:00:00+15:59',
    });
    expect(created.status).toBe(201);
    expect(created.body.data.effective_from).toBe('2030-03-31T08:01:00.000Z');
    for (const [value, stored] of [
      ['9998-12-31T23:59:59.999Z', '9998-12-31T23:59:59.999Z'],
      ['2030-04-01T00:00:00-15:59', '2030-04-01T15:59:00.000Z'],
    ]) {
      const updated = await r.owner.client.put(`/api/v1/tariffs/${from}/transitions`, {
        account_id: r.accountId,
        effective_from: value,
      });
      expect([value, updated.status, updated.body.data?.effective_from]).toEqual([value, 200, stored]);
    }
    const deleted = await r.owner.client.put(`/api/v1/tariffs/${deletedId}`, {
      account_id: r.accountId,
      deleted_at: '2026-01-01T00:00:00-15:59',
    });
    expect(deleted.status).toBe(200);
    expect((await r.owner.client.get(`/api/v1/tariffs/${deletedId}`, { account_id: r.accountId })).status).toBe(404);
    const [row] = await t.db.query<{ deleted_at: Date }>('SELECT deleted_at FROM tariffs WHERE id = $1', [deletedId]);
    expect(row!.deleted_at.toISOString()).toBe('2026-01-01T15:59:00.000Z');
    const sum = await r.owner.client.get(`${TIMESERIES}/energy-sum`, {
      account_id: r.accountId,
      meter_sn: meterSn,
      start: '2026-01-01T00:00:00+15:59',
      end: '2026-01-02T00:00:00-15:59',
    });
    expect(sum.status).toBe(200);
    const whole = await r.owner.client.get(`${TIMESERIES}/energy-sum`, {
      account_id: r.accountId,
      meter_sn: meterSn,
      start: '1900-01-01T00:00:00Z',
      end: '9998-12-31T23:59:59.999Z',
    });
    expect(whole.status).toBe(200);
  });

  it('keeps the message of a text that is no date-time at all', async () => {
    const [field, send] = DATE_TIME_FIELDS[0]!;
    const res = await send('2026-01-01T00:00:00+24:00');
    expect([res.status, res.body]).toEqual([400, invalid(`${field}: Invalid ISO datetime`)]);
  });
});

describe('a date in any field', () => {
  /** Each field that takes a date (or a date-time whose date is kept), and how a request sends a value in it. */
  const DATE_FIELDS: [string, Send][] = [
    [
      'effective_from',
      (value) =>
        r.owner.client.post('/api/v1/tariffs', {
          account_id: r.accountId,
          name: 'Dated',
          effective_from: value,
          effective_to: '2026-12-31',
        }),
    ],
    [
      'effective_to',
      (value) =>
        r.owner.client.put(`/api/v1/tariffs/${predecessorId}`, { account_id: r.accountId, effective_to: value }),
    ],
    [
      'effective_from_gte',
      inQuery((value) => r.owner.client.get('/api/v1/tariffs/catalogue', { effective_from_gte: value })),
    ],
    [
      'effective_from_lte',
      inQuery((value) => r.owner.client.get('/api/v1/tariffs/catalogue', { effective_from_lte: value })),
    ],
  ];

  it.each(DATE_FIELDS.map(([field, send], n) => [n, field, send] as const))(
    '#%i %s: a year before 1900 is a 400 naming the field',
    async (_n, field, send) => {
      for (const value of ['0001-01-01', '1899-12-31']) {
        const res = await send(value);
        expect([value, res.status, res.body]).toEqual([value, 400, refusal(send, `${field}: ${YEARS}`)]);
      }
    },
  );

  it("reads a tariff's dates given as date-times by the date-time rule, then keeps the date", async () => {
    const [field, send] = DATE_FIELDS[0]!;
    const offset = await send('2026-01-01T00:00:00+16:00');
    expect([offset.status, offset.body]).toEqual([400, invalid(`${field}: ${OFFSET}`)]);
    const early = await send('0001-01-01T00:00:00Z');
    expect([early.status, early.body]).toEqual([400, invalid(`${field}: ${YEARS}`)]);
    const kept = await send('2026-01-01T00:00:00+15:59');
    expect([kept.status, (kept.body as { data: { effective_from: string } }).data.effective_from]).toEqual([
      201,
      '2026-01-01',
    ]);
  });

  it('accepts the years 1900 and 9999', async () => {
    const created = await r.owner.client.post('/api/v1/tariffs', {
      account_id: r.accountId,
      name: 'Long',
      effective_from: '1900-01-01',
      effective_to: '9999-12-31',
    });
    expect([created.status, created.body.data?.effective_from, created.body.data?.effective_to]).toEqual([
      201,
      '1900-01-01',
      '9999-12-31',
    ]);
    const listed = await r.owner.client.get('/api/v1/tariffs/catalogue', {
      effective_from_gte: '1900-01-01',
      effective_from_lte: '9999-12-31',
    });
    expect(listed.status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  interface Schema {
    format?: string;
    pattern?: string;
    description?: string;
    anyOf?: Schema[];
    properties?: Record<string, Schema>;
    items?: Schema;
  }
  interface Operation {
    parameters?: { name: string; schema: Schema; description?: string }[];
    requestBody?: { content: Record<string, { schema: Schema }> };
  }

  /** Every date-time field of the document's requests: its name, pattern and description. */
  function dateTimeFields(document: { paths: Record<string, Record<string, Operation>> }) {
    const found: { where: string; pattern?: string; description?: string }[] = [];
    const visit = (where: string, schema: Schema | undefined, description?: string) => {
      if (!schema) return;
      if (schema.format === 'date-time') {
        found.push({ where, pattern: schema.pattern, description: schema.description ?? description });
      }
      for (const option of schema.anyOf ?? []) visit(where, option, schema.description ?? description);
      for (const [name, property] of Object.entries(schema.properties ?? {})) visit(`${where}.${name}`, property);
      visit(`${where}[]`, schema.items);
    };
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const parameter of operation.parameters ?? []) {
          visit(`${method} ${path} ${parameter.name}`, parameter.schema, parameter.description);
        }
        visit(`${method} ${path} body`, operation.requestBody?.content['application/json']?.schema);
      }
    }
    return found;
  }

  it('gives every date-time field a pattern of offsets up to ±15:59 and a description of the bounds', async () => {
    const document = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
    const fields = dateTimeFields(document);
    const names = fields.map((f) => f.where);
    for (const expected of [
      'post /api/v1/tariffs/{id}/transitions body.effective_from',
      'put /api/v1/tariffs/{id}/transitions body.effective_from',
      'put /api/v1/tariffs/{id} body.deleted_at',
      'get /api/v1/tariffs/{id}/cost start',
      'get /api/v1/building_blocks/{id}/energy-cost end',
      'get /api/v1/timeseries/electricity/energy-sum start',
      'post /api/v1/timeseries/electricity/readings body.readings[].ts',
    ]) {
      expect(names).toContain(expected);
    }
    for (const field of fields) {
      const pattern = new RegExp(field.pattern ?? '^$');
      expect([
        field.where,
        pattern.test('2026-01-01T00:00:00+15:59'),
        pattern.test('2026-01-01T00:00:00-16:00'),
      ]).toEqual([field.where, true, false]);
      expect([field.where, field.description]).toEqual([
        field.where,
        expect.stringMatching(/±15:59.*1900-01-01T00:00:00Z.*9999-01-01T00:00:00Z/),
      ]);
    }
  });
});
