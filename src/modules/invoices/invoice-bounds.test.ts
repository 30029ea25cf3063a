import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../../test/helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { invoiceBody as invoiceOf } from '../../../test/helpers/invoice-factories.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertReadings,
  insertTariff,
} from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// The sizes an invoice may have (extensions §13.4): the list carries a line count rather than the
// lines, an invoice has at most 200 lines of descriptions of at most 200 characters, and its stored
// money (its figures and its latest check's difference) holds any bill the service computes, up to
// 9,999,999,999,999.99 in magnitude (§13.8).

let t: TestApp;
let org: OrganizationWithRoles;
beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

// One day in South African time (UTC+2), the tariffs' default zone.
const DAY = { start: '2025-03-02T22:00:00.000Z', end: '2025-03-03T22:00:00.000Z' };

/** An invoice of the day whose lines of energy charge `amounts`, without tax. */
function invoiceBody(blockId: number, amounts: number[], fields: Record<string, unknown> = {}) {
  const subtotal = amounts.reduce((sum, amount) => sum + amount, 0);
  return invoiceOf(org.accountId, blockId, {
    ...DAY,
    lines: amounts.map((amount, i) => ({
      description: `Energy ${i + 1}`,
      item_type_code: 'IMPORT_ENERGY',
      quantity: null,
      unit: 'kWh',
      amount,
    })),
    subtotal,
    tax: 0,
    total: subtotal,
    ...fields,
  });
}

async function create(body: unknown) {
  const res = await org.owner.client.post('/api/v1/invoices', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number };
}

describe('the invoice list', () => {
  it('answers each invoice with line_count instead of its lines; the invoice itself keeps them', async () => {
    const block = await insertBuildingBlock(t.db, org.accountId);
    const three = await create(invoiceBody(block, [1, 2, 3]));
    const one = await create(invoiceBody(block, [4], { start: '2025-03-01T22:00:00.000Z' }));
    const list = await org.member.client.get('/api/v1/invoices', {
      account_id: org.accountId,
      building_block_id: block,
      sortBy: 'start',
      sortOrder: 'desc',
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: { id: number; line_count: number }) => [i.id, i.line_count])).toEqual([
      [three.id, 3],
      [one.id, 1],
    ]);
    for (const invoice of list.body.data) expect(invoice).not.toHaveProperty('lines');
    const read = await org.member.client.get(`/api/v1/invoices/${three.id}`, { account_id: org.accountId });
    expect(read.body.data.lines.map((l: { amount: number }) => l.amount)).toEqual([1, 2, 3]);
    expect(read.body.data).not.toHaveProperty('line_count');
  });
});

describe('invoice sizes', () => {
  it('takes 200 lines of 200-character descriptions and refuses more, naming the field', async () => {
    const block = await insertBuildingBlock(t.db, org.accountId);
    const long = 'x'.repeat(200);
    const body = invoiceBody(block, Array(200).fill(1));
    const full = { ...body, lines: body.lines.map((line) => ({ ...line, description: long })) };
    expect((await org.owner.client.post('/api/v1/invoices', full)).status).toBe(201);

    const tooMany = invoiceBody(block, Array(201).fill(1));
    const many = await org.owner.client.post('/api/v1/invoices', tooMany);
    expect([many.status, many.body]).toEqual([400, invalid('lines: Too big: expected array to have <=200 items')]);

    const tooLong = invoiceBody(block, [1, 2]);
    tooLong.lines[1]!.description = 'x'.repeat(201);
    const longer = await org.owner.client.post('/api/v1/invoices', tooLong);
    expect([longer.status, longer.body]).toEqual([
      400,
      invalid('lines.1.description: Too big: expected string to have <=200 characters'),
    ]);
  });
});

describe('invoice money up to 9,999,999,999,999.99', () => {
  /** A block whose grid meter read 5,000,000 kWh that day (in 5 of its 48 half hours), priced at 1,000,000 a kWh: a bill of 5,000,000,000,000.00. */
  async function blockOfLargeBill(): Promise<number> {
    const block = await insertBuildingBlock(t.db, org.accountId);
    const meter = await insertMeter(t.db, org.accountId, block);
    await insertReadings(t.db, meter, DAY.start, 48, (i) => ({ import_kwh: i < 5 ? 1_000_000 : 0 }));
    const tariff = await insertTariff(t.db, org.accountId);
    await t.db.query(
      `INSERT INTO tariff_items (tariff_id, item_type_code, price) VALUES ($1, 'IMPORT_ENERGY', 1000000)`,
      [tariff],
    );
    await insertDashboardConfig(t.db, org.accountId, block, { grid: tariff }, { grid: meter });
    return block;
  }

  const check = (id: number) => org.member.client.get(`/api/v1/invoices/${id}/check`, { account_id: org.accountId });

  it('records an invoice of a bill above 1e12 and checks it', async () => {
    const invoice = await create(invoiceBody(await blockOfLargeBill(), [5_000_000_000_000]));
    const res = await check(invoice.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      computed: { total: 5_000_000_000_000, import_kwh: 5_000_000, complete: true },
      invoice_total: 5_000_000_000_000,
      difference: 0,
      status: 'ok',
    });
  });

  it('keeps the difference of a small invoice against a bill above 1e12', async () => {
    const invoice = await create(invoiceBody(await blockOfLargeBill(), [0.01]));
    const res = await check(invoice.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect([res.body.data.difference, res.body.data.status]).toEqual([-4_999_999_999_999.99, 'flagged']);
    const read = await org.member.client.get(`/api/v1/invoices/${invoice.id}`, { account_id: org.accountId });
    expect([read.body.data.status, read.body.data.difference]).toEqual(['flagged', -4_999_999_999_999.99]);
  });

  it('records the largest amounts, and refuses one cent more naming the field', async () => {
    const block = await insertBuildingBlock(t.db, org.accountId);
    const largest = await create(invoiceBody(block, [9_999_999_999_999.99]));
    const read = await org.member.client.get(`/api/v1/invoices/${largest.id}`, { account_id: org.accountId });
    expect([read.body.data.lines[0].amount, read.body.data.subtotal, read.body.data.total]).toEqual([
      9_999_999_999_999.99, 9_999_999_999_999.99, 9_999_999_999_999.99,
    ]);
    const tooLarge = await org.owner.client.post('/api/v1/invoices', invoiceBody(block, [10_000_000_000_000]));
    const tooBig = (field: string) => `${field}: Too big: expected number to be <=9999999999999.99`;
    expect([tooLarge.status, tooLarge.body]).toEqual([
      400,
      invalid([tooBig('lines.0.amount'), tooBig('subtotal'), tooBig('total')].join('; ')),
    ]);
  });
});
