import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { FORBIDDEN_NOT_MEMBER, invalid, notFound } from '../../../test/helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { invoiceBody as invoiceOf } from '../../../test/helpers/invoice-factories.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ingest } from '../../../test/helpers/timeseries-factories.ts';

// Invoices (extensions §12.3) checked against hand-computed bills. The grid meter reads 1 kWh every
// half hour of 1 and 2 June 2025 (UTC), 96 kWh; the tariff (UTC, 15% tax) charges IMPORT_ENERGY
// 2.00/kWh and SERVICE 10.00/day. Each test's invoices are of a block of their own whose config
// prices that meter, so that their periods meet no other test's.
// Two days, 1 to 3 June: energy 96 x 2.00 = 192.00; service 2 x 10.00 = 20.00; subtotal 212.00;
// tax 31.80; total 243.80.

let t: TestApp;
let org: OrganizationWithRoles;
let meterId: number;
let tariffId: number;

const TWO_DAYS = { start: '2025-06-01T00:00:00Z', end: '2025-06-03T00:00:00Z' };
const ENERGY = { description: 'Energy', item_type_code: 'IMPORT_ENERGY', unit: 'kWh' };
const SERVICE = { description: 'Service charge', item_type_code: 'SERVICE', unit: 'day' };

interface Line {
  description: string;
  item_type_code: string | null;
  quantity: number | null;
  unit: string | null;
  amount: number;
}

const invoiceBody = (blockId: number, fields: Record<string, unknown> & { lines: Line[] }) =>
  invoiceOf(org.accountId, blockId, { ...TWO_DAYS, ...fields });

/** The correct invoice of the two days. */
const correct = (blockId: number, fields: Record<string, unknown> = {}) =>
  invoiceBody(blockId, {
    lines: [
      { ...ENERGY, quantity: 96, amount: 192 },
      { ...SERVICE, quantity: 2, amount: 20 },
    ],
    subtotal: 212,
    tax: 31.8,
    total: 243.8,
    ...fields,
  });

async function create(body: unknown) {
  const res = await org.owner.client.post('/api/v1/invoices', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; invoice_number: string };
}

const check = (id: number, query: Record<string, string> = {}) =>
  org.member.client.get(`/api/v1/invoices/${id}/check`, { account_id: org.accountId, ...query });

async function flagsOf(id: number, query: Record<string, string> = {}) {
  const res = await check(id, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.flags.map((f: { code: string }) => f.code);
}

/** A block whose config's grid is the shared meter, priced with `tariff` (null: none). */
async function pricedBlock(tariff: number | null = tariffId) {
  const { id } = await createBlock(org.owner.client, org.accountId);
  const res = await org.owner.client.put(`/api/v1/building_blocks/${id}/config`, {
    account_id: org.accountId,
    grid_meter_id: meterId,
    grid_tariff_id: tariff,
  });
  expect(res.status).toBe(200);
  return id as number;
}

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  const site = await createBlock(org.owner.client, org.accountId, { name: 'Invoiced site' });
  const meter = await createMeter(org.owner.client, org.accountId, site.id);
  meterId = meter.id;
  await ingest(
    org.owner.client,
    org.accountId,
    meter.meter_sn,
    Array.from({ length: 96 }, (_, i) => ({
      ts: new Date(Date.parse(TWO_DAYS.start) + i * 1_800_000).toISOString(),
      import_kwh: 1,
    })),
  );
  ({ id: tariffId } = await createTariff(org.owner.client, org.accountId, { timezone: 'UTC', tax_rate: 15 }));
  await createItems(org.owner.client, tariffId, [
    { item_type_code: 'IMPORT_ENERGY', price: 2, season: 'ALL_YEAR' },
    { item_type_code: 'SERVICE', price: 10, season: 'ALL_YEAR' },
  ]);
});
afterAll(async () => t.close());

describe('GET /invoices/:id/check', () => {
  it('answers ok without a flag for a correct invoice', async () => {
    const invoice = await create(correct(await pricedBlock()));
    const res = await check(invoice.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      invoice_id: invoice.id,
      computed: { total: 243.8, import_kwh: 96, complete: true, warnings: [] },
      invoice_total: 243.8,
      difference: 0,
      lines: [
        {
          item_type_code: 'IMPORT_ENERGY',
          invoice_amount: 192,
          computed_amount: 192,
          difference: 0,
          invoice_quantity: 96,
          computed_quantity: 96,
        },
        {
          item_type_code: 'SERVICE',
          invoice_amount: 20,
          computed_amount: 20,
          difference: 0,
          invoice_quantity: 2,
          computed_quantity: 2,
        },
      ],
      flags: [],
      status: 'ok',
      tolerance_pct: 1,
    });
  });

  it('flags TOTAL_VARIANCE and LINE_VARIANCE beyond the tolerance, and not within a wider one', async () => {
    // Energy billed at 200.00 instead of 192.00: subtotal 220.00, tax 33.00, total 253.00.
    const invoice = await create(
      invoiceBody(await pricedBlock(), {
        lines: [
          { ...ENERGY, quantity: 96, amount: 200 },
          { ...SERVICE, quantity: 2, amount: 20 },
        ],
        subtotal: 220,
        tax: 33,
        total: 253,
      }),
    );
    const res = await check(invoice.id);
    // Difference 253.00 - 243.80 = 9.20 > max(1% of 243.80 = 2.44, 1.00); the energy line's 8.00 >
    // max(1% of 192.00 = 1.92, 1.00).
    expect(res.body.data).toMatchObject({ difference: 9.2, status: 'flagged' });
    expect(res.body.data.lines[0]).toMatchObject({ item_type_code: 'IMPORT_ENERGY', difference: 8 });
    expect(res.body.data.flags).toEqual([
      {
        code: 'TOTAL_VARIANCE',
        severity: 'error',
        message: "The invoice's total of R 253,00 is R 9,20 more than our bill's R 243,80",
      },
      {
        code: 'LINE_VARIANCE',
        severity: 'error',
        message: 'Active energy: the invoice charges R 200,00, our bill R 192,00 (R 8,00 more)',
      },
    ]);
    // 5%: the total's tolerance is 12.19 > 9.20, the line's 9.60 > 8.00.
    expect(await flagsOf(invoice.id, { tolerance_pct: '5' })).toEqual([]);
  });

  it('never tolerates less than 1.00: a 0.90 difference on a small bill is within it', async () => {
    // 0.90 over the computed 243.80 at tolerance 0: max(0, 1.00) = 1.00 > 0.90.
    const invoice = await create(
      correct(await pricedBlock(), {
        lines: [
          { ...ENERGY, quantity: 96, amount: 192.9 },
          { ...SERVICE, quantity: 2, amount: 20 },
        ],
        subtotal: 212.9,
        total: 244.7,
      }),
    );
    expect(await flagsOf(invoice.id, { tolerance_pct: '0' })).toEqual([]);
  });

  it('flags UNMATCHED_LINE for a money line on one side only', async () => {
    // A fee the computed bill does not know (1.50), and no SERVICE line (the computed 20.00):
    // invoice subtotal 193.50, tax 29.03, total 222.53; difference -21.27 is also a TOTAL_VARIANCE.
    const invoice = await create(
      invoiceBody(await pricedBlock(), {
        lines: [
          { ...ENERGY, quantity: 96, amount: 192 },
          { description: 'Admin fee', item_type_code: null, quantity: null, unit: null, amount: 1.5 },
        ],
        subtotal: 193.5,
        tax: 29.03,
        total: 222.53,
      }),
    );
    const res = await check(invoice.id);
    expect(res.body.data.difference).toBe(-21.27);
    expect(res.body.data.lines.map((l: { item_type_code: string | null }) => l.item_type_code)).toEqual([
      'IMPORT_ENERGY',
      null,
      'SERVICE',
    ]);
    expect(res.body.data.lines[1]).toEqual({
      item_type_code: null,
      invoice_amount: 1.5,
      computed_amount: null,
      difference: null,
      invoice_quantity: null,
      computed_quantity: null,
    });
    expect(res.body.data.flags).toEqual([
      {
        code: 'TOTAL_VARIANCE',
        severity: 'error',
        message: "The invoice's total of R 222,53 is R 21,27 less than our bill's R 243,80",
      },
      {
        code: 'UNMATCHED_LINE',
        severity: 'error',
        message: 'A line without an item type: the invoice charges R 1,50, our bill has no such charge',
      },
      {
        code: 'UNMATCHED_LINE',
        severity: 'error',
        message: 'Service charge: our bill charges R 20,00, the invoice has no such charge',
      },
    ]);
  });

  it('flags QUANTITY_MISMATCH when an energy line’s kWh are off by more than the tolerance', async () => {
    // 100 kWh invoiced against 96 measured: 4 > 1% of 96 = 0.96; the amounts are right.
    const invoice = await create(
      correct(await pricedBlock(), {
        lines: [
          { ...ENERGY, quantity: 100, amount: 192 },
          { ...SERVICE, quantity: 2, amount: 20 },
        ],
      }),
    );
    const res = await check(invoice.id);
    expect(res.body.data.flags).toEqual([
      {
        code: 'QUANTITY_MISMATCH',
        severity: 'error',
        message: 'Active energy: the invoice counts 100 kWh, the meter measured 96 kWh',
      },
    ]);
    // 4 kWh is within 5% of 96 (4.8).
    expect(await flagsOf(invoice.id, { tolerance_pct: '5' })).toEqual([]);
  });

  it('flags PERIOD_OVERLAP on both invoices whose periods overlap', async () => {
    const block = await pricedBlock();
    const first = await create(correct(block));
    // 2 to 3 June: 48 kWh x 2.00 = 96.00 + 10.00 = 106.00; tax 15.90; 121.90.
    const second = await create(
      invoiceBody(block, {
        start: '2025-06-02T00:00:00Z',
        lines: [
          { ...ENERGY, quantity: 48, amount: 96 },
          { ...SERVICE, quantity: 1, amount: 10 },
        ],
        subtotal: 106,
        tax: 15.9,
        total: 121.9,
      }),
    );
    const res = await check(second.id);
    expect(res.body.data).toMatchObject({ computed: { total: 121.9 }, difference: 0 });
    expect(res.body.data.flags).toEqual([
      {
        code: 'PERIOD_OVERLAP',
        severity: 'warning',
        message: `The period overlaps invoice ${first.invoice_number}: some days may be charged twice`,
      },
    ]);
    expect(await flagsOf(first.id)).toEqual(['PERIOD_OVERLAP']);
  });

  it('flags PERIOD_GAP when the latest earlier invoice ends before this one starts', async () => {
    const block = await pricedBlock();
    // 1 June: 48 x 2.00 = 96.00 + 10.00 = 106.00; tax 15.90; 121.90.
    const day = (start: string, end: string) => ({ start, end });
    const before = await create(
      invoiceBody(block, {
        ...day('2025-06-01T00:00:00Z', '2025-06-02T00:00:00Z'),
        lines: [
          { ...ENERGY, quantity: 48, amount: 96 },
          { ...SERVICE, quantity: 1, amount: 10 },
        ],
        subtotal: 106,
        tax: 15.9,
        total: 121.9,
      }),
    );
    // 2 June from 12:00: 24 x 2.00 = 48.00 + 0.5 day x 10.00 = 5.00 -> 53.00; tax 7.95; 60.95.
    const after = await create(
      invoiceBody(block, {
        ...day('2025-06-02T12:00:00Z', '2025-06-03T00:00:00Z'),
        lines: [
          { ...ENERGY, quantity: 24, amount: 48 },
          { ...SERVICE, quantity: 0.5, amount: 5 },
        ],
        subtotal: 53,
        tax: 7.95,
        total: 60.95,
      }),
    );
    const res = await check(after.id);
    expect(res.body.data).toMatchObject({ computed: { total: 60.95 }, difference: 0 });
    expect(res.body.data.flags).toEqual([
      {
        code: 'PERIOD_GAP',
        severity: 'warning',
        message: `No invoice covers 2025-06-02 00:00 UTC to 2025-06-02 12:00 UTC: invoice ${before.invoice_number} ends before this one starts`,
      },
    ]);
    // The earlier one has none: nothing before it, and the later one does not overlap it.
    expect(await flagsOf(before.id)).toEqual([]);
  });

  it('flags ESTIMATED on an estimated invoice that is otherwise right', async () => {
    const invoice = await create(correct(await pricedBlock(), { estimated: true }));
    const res = await check(invoice.id);
    expect(res.body.data.flags).toEqual([
      {
        code: 'ESTIMATED',
        severity: 'warning',
        message: 'The utility estimated the reading: expect a correction on a later invoice',
      },
    ]);
  });

  it('flags INCOMPLETE_DATA when the computed bill misses readings', async () => {
    // 1 to 4 June, readings for two days: energy 96 x 2.00 = 192.00; service 3 x 10.00 = 30.00;
    // subtotal 222.00; tax 33.30; total 255.30.
    const invoice = await create(
      invoiceBody(await pricedBlock(), {
        end: '2025-06-04T00:00:00Z',
        lines: [
          { ...ENERGY, quantity: 96, amount: 192 },
          { ...SERVICE, quantity: 3, amount: 30 },
        ],
        subtotal: 222,
        tax: 33.3,
        total: 255.3,
      }),
    );
    const res = await check(invoice.id);
    expect(res.body.data).toMatchObject({ computed: { total: 255.3, import_kwh: 96, complete: false }, difference: 0 });
    expect(res.body.data.computed.warnings.length).toBeGreaterThan(0);
    expect(res.body.data.flags).toEqual([
      {
        code: 'INCOMPLETE_DATA',
        severity: 'warning',
        message: `Our bill is not complete, so the comparison is not exact: ${res.body.data.computed.warnings.join('; ')}`,
      },
    ]);
  });

  it('flags NO_TARIFF when no part of the period is priced, with what follows from a computed 0.00', async () => {
    const invoice = await create(correct(await pricedBlock(null)));
    const res = await check(invoice.id);
    expect(res.body.data).toMatchObject({
      computed: { total: 0, import_kwh: 0, complete: false, warnings: ['No tariff configured'] },
      difference: 243.8,
      status: 'flagged',
    });
    expect(res.body.data.flags.map((f: { code: string; severity: string }) => [f.code, f.severity])).toEqual([
      ['TOTAL_VARIANCE', 'error'],
      ['UNMATCHED_LINE', 'error'],
      ['UNMATCHED_LINE', 'error'],
      ['INCOMPLETE_DATA', 'warning'],
      ['NO_TARIFF', 'error'],
    ]);
    expect(res.body.data.flags.at(-1).message).toBe(
      'No tariff prices any part of the period: there is no bill of ours to compare with',
    );
  });

  it('checks a block without a dashboard config as unpriced rather than 404', async () => {
    const { id: bare } = await createBlock(org.owner.client, org.accountId);
    const invoice = await create(correct(bare));
    const res = await check(invoice.id);
    expect(res.status).toBe(200);
    expect(res.body.data.computed.warnings).toEqual(['No dashboard config']);
    expect(res.body.data.flags.map((f: { code: string }) => f.code)).toContain('NO_TARIFF');
  });
});

describe('invoices: create, list, read, replace, delete', () => {
  it('creates an invoice and reads it back', async () => {
    const block = await pricedBlock();
    const body = correct(block, { source: 'grid', estimated: false });
    const res = await org.owner.client.post('/api/v1/invoices', body);
    expect(res.status).toBe(201);
    const { account_id, ...fields } = body;
    expect(res.body.data).toMatchObject({
      ...fields,
      account_id,
      start: '2025-06-01T00:00:00.000Z',
      end: '2025-06-03T00:00:00.000Z',
      status: null,
      difference: null,
    });
    expect(Number.isInteger(res.body.data.id)).toBe(true);
    const read = await org.member.client.get(`/api/v1/invoices/${res.body.data.id}`, { account_id: org.accountId });
    expect(read.body.data).toEqual(res.body.data);
  });

  it('refuses invoices whose figures do not add up, or that break the rules', async () => {
    const block = await pricedBlock();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ subtotal: 212.01, total: 243.81 }, 400, 'subtotal: The lines add up to 212.00, not 212.01'],
      [{ total: 243.79 }, 400, 'total: subtotal + tax is 243.80, not 243.79'],
      [{ tax: 31.801 }, 400, 'tax: Must have at most 2 decimals'],
      [{ end: '2025-06-01T00:00:00Z' }, 400, 'end: end must be after start'],
      [{ end: '2026-06-03T00:00:00Z' }, 400, 'end: The period may span at most 366 days'],
      [{ building_block_id: 999_999 }, 400, 'building_block_id: Building block 999999 not found in this organization'],
      [{ colour: 'red' }, 400, 'colour: Unrecognized key "colour"'],
    ];
    for (const [fields, status, error] of cases) {
      const res = await org.owner.client.post('/api/v1/invoices', { ...correct(block), ...fields });
      expect([res.status, res.body.error], JSON.stringify(fields)).toEqual([status, error]);
    }
  });

  it('answers 409 for the same supplier and number twice in an organization, not across organizations', async () => {
    const block = await pricedBlock();
    const body = correct(block);
    await create(body);
    const again = await org.owner.client.post('/api/v1/invoices', body);
    expect([again.status, again.body.error]).toEqual([
      409,
      'An invoice with this supplier and invoice_number already exists in this organization',
    ]);
    const otherSupplier = await org.owner.client.post('/api/v1/invoices', { ...body, supplier: 'Eskom' });
    expect(otherSupplier.status).toBe(201);
  });

  it('lists with filters and sorting, each invoice with its latest check (null before the first)', async () => {
    const block = await pricedBlock();
    const checked = await create(correct(block, { issued_on: '2025-07-02' }));
    const unchecked = await create(
      correct(block, { issued_on: '2025-07-01', start: '2025-06-02T00:00:00Z', estimated: true }),
    );
    expect((await check(checked.id)).body.data.status).toBe('flagged'); // overlaps the other
    const list = (query: Record<string, string>) =>
      org.member.client.get('/api/v1/invoices', {
        account_id: org.accountId,
        building_block_id: String(block),
        ...query,
      });
    const byDefault = await list({});
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.count).toBe(2);
    // Default: start, newest first.
    expect(byDefault.body.data.map((i: { id: number }) => i.id)).toEqual([unchecked.id, checked.id]);
    expect(
      byDefault.body.data.map((i: { status: string | null; difference: number | null }) => [i.status, i.difference]),
    ).toEqual([
      [null, null],
      ['flagged', 0],
    ]);
    const byIssued = await list({ sortBy: 'issued_on', sortOrder: 'asc', limit: '1' });
    expect([byIssued.body.count, byIssued.body.data.map((i: { id: number }) => i.id)]).toEqual([2, [unchecked.id]]);
    const bad = await list({ sortBy: 'supplier' });
    expect(bad.status).toBe(400);
    const solar = await list({ source: 'solar' });
    expect([solar.body.count, solar.body.data]).toEqual([0, []]);
  });

  it('replaces an invoice (forgetting its latest check) and deletes it once', async () => {
    const block = await pricedBlock();
    const invoice = await create(correct(block));
    expect((await check(invoice.id)).body.data.status).toBe('ok');
    const replaced = await org.owner.client.put(`/api/v1/invoices/${invoice.id}`, correct(block, { estimated: true }));
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.data).toMatchObject({ id: invoice.id, estimated: true, status: null, difference: null });
    expect((await check(invoice.id)).body.data.status).toBe('flagged');
    const read = await org.member.client.get(`/api/v1/invoices/${invoice.id}`, { account_id: org.accountId });
    expect([read.body.data.status, read.body.data.difference]).toEqual(['flagged', 0]);

    const member = await org.member.client.delete(`/api/v1/invoices/${invoice.id}`, { account_id: org.accountId });
    expect(member.status).toBe(403);
    const removed = await org.owner.client.delete(`/api/v1/invoices/${invoice.id}`, { account_id: org.accountId });
    expect(removed.status).toBe(204);
    const gone = await org.owner.client.delete(`/api/v1/invoices/${invoice.id}`, { account_id: org.accountId });
    expect([gone.status, gone.body.error]).toEqual([404, 'Invoice not found']);
  });

  it('keeps other organizations out: 403 for their invoice, 404 for none', async () => {
    const invoice = await create(correct(await pricedBlock()));
    const outsider = await org.outsider.client.get(`/api/v1/invoices/${invoice.id}`, {
      account_id: org.otherAccountId,
    });
    expect([outsider.status, outsider.body.error]).toEqual([403, 'Invoice belongs to another organization']);
    const missing = await org.member.client.get('/api/v1/invoices/999999', { account_id: org.accountId });
    expect([missing.status, missing.body.error]).toEqual([404, 'Invoice not found']);
  });
});

describe('POST /invoices/draft', () => {
  const draft = (query: Record<string, unknown>, client = org.member.client) =>
    client.post(`/api/v1/invoices/draft?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`);

  it('answers our bill as an invoice to start from, which POST /invoices takes, and stores nothing', async () => {
    const block = await pricedBlock();
    const res = await draft({ account_id: org.accountId, building_block_id: block, ...TWO_DAYS });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      account_id: org.accountId,
      building_block_id: block,
      source: 'grid',
      start: '2025-06-01T00:00:00.000Z',
      end: '2025-06-03T00:00:00.000Z',
      currency: 'ZAR',
      estimated: false,
      lines: [
        { description: 'Active energy', item_type_code: 'IMPORT_ENERGY', quantity: 96, unit: 'kWh', amount: 192 },
        { description: 'Service charge', item_type_code: 'SERVICE', quantity: 2, unit: 'day', amount: 20 },
      ],
      subtotal: 212,
      tax: 31.8,
      total: 243.8,
    });
    const listed = await org.member.client.get('/api/v1/invoices', {
      account_id: org.accountId,
      building_block_id: block,
    });
    expect(listed.body.data).toEqual([]);
    // Saved as it is, the invoice checks without a flag against the bill it came from.
    const saved = await create({
      ...res.body.data,
      supplier: 'City Power',
      invoice_number: `DRAFT-${block}`,
      issued_on: '2025-06-05',
    });
    expect(await flagsOf(saved.id)).toEqual([]);
  });

  it('refuses what it cannot draft with the contract’s statuses', async () => {
    const unpriced = await pricedBlock(null);
    const bare = (await createBlock(org.owner.client, org.accountId)).id;
    const query = { account_id: org.accountId, ...TWO_DAYS };
    const noTariff = await draft({ ...query, building_block_id: unpriced });
    expect([noTariff.status, noTariff.body]).toEqual([
      400,
      invalid('grid: The source is not priced: No tariff configured'),
    ]);
    const noConfig = await draft({ ...query, building_block_id: bare });
    expect([noConfig.status, noConfig.body]).toEqual([404, notFound('Dashboard config')]);
    const outsider = await draft({ ...query, building_block_id: unpriced }, org.outsider.client);
    expect([outsider.status, outsider.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
  });
});
