import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conflict, invalid } from '../../../test/helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createTariff, tariffBody } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { OVERLAPPING_VERSIONS } from './tariff-rules.ts';

let t: TestApp;
let r: OrganizationWithRoles;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

const base = '/api/v1/tariffs';
const catalogue = '/api/v1/tariffs/catalogue';
const OVERLAP = conflict(OVERLAPPING_VERSIONS);
const ELIGIBILITY = {
  customer_classes: ['COMMERCIAL', 'INDUSTRIAL'],
  min_nmd_kva: 16,
  max_nmd_kva: 5000.5,
  family: 'our-miniflex',
};

describe('eligibility fields (extensions §13.1)', () => {
  it('stores them on create, reads and lists them, changes them on update and sets them back to null', async () => {
    const created = await r.owner.client.post(base, tariffBody(r.accountId, ELIGIBILITY));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject(ELIGIBILITY);
    const id = created.body.data.id;
    const read = await r.member.client.get(`${base}/${id}`, { account_id: r.accountId });
    expect(read.body).toEqual(created.body);
    const listed = await r.member.client.get(base, { account_id: r.accountId, limit: 100 });
    expect(listed.body.data.find((row: { id: number }) => row.id === id)).toMatchObject(ELIGIBILITY);
    const updated = await r.admin.client.put(`${base}/${id}`, {
      account_id: r.accountId,
      customer_classes: ['RESIDENTIAL'],
      max_nmd_kva: 100,
      family: 'our-homepower',
    });
    expect(updated.body.data).toMatchObject({
      customer_classes: ['RESIDENTIAL'],
      min_nmd_kva: 16,
      max_nmd_kva: 100,
      family: 'our-homepower',
    });
    const cleared = await r.admin.client.put(`${base}/${id}`, {
      account_id: r.accountId,
      customer_classes: null,
      min_nmd_kva: null,
      max_nmd_kva: null,
      family: null,
    });
    expect(cleared.body.data).toMatchObject({
      customer_classes: null,
      min_nmd_kva: null,
      max_nmd_kva: null,
      family: null,
    });
  });

  it.each([
    [
      { customer_classes: ['HOSPITAL'] },
      'customer_classes.0: Invalid option: expected one of "RESIDENTIAL"|"COMMERCIAL"|"INDUSTRIAL"|"AGRICULTURAL"',
    ],
    [{ customer_classes: [] }, 'customer_classes: Too small: expected array to have >=1 items'],
    [{ customer_classes: ['RESIDENTIAL', 'RESIDENTIAL'] }, 'customer_classes: Each class once'],
    [{ min_nmd_kva: -1 }, 'min_nmd_kva: Too small: expected number to be >=0'],
    [{ max_nmd_kva: 1_000_001 }, 'max_nmd_kva: Too big: expected number to be <=1000000'],
    [{ min_nmd_kva: 100, max_nmd_kva: 99 }, 'max_nmd_kva: Must be at least min_nmd_kva'],
    [{ family: '' }, 'family: Too small: expected string to have >=1 characters'],
    [{ family: 'f'.repeat(101) }, 'family: Too big: expected string to have <=100 characters'],
  ])('refuses %j on create with 400 naming the field', async (fields, error) => {
    const res = await r.owner.client.post(base, tariffBody(r.accountId, fields));
    expect([res.status, res.body]).toEqual([400, invalid(error)]);
  });

  it('refuses an update that leaves min_nmd_kva above max_nmd_kva (400) and leaves the tariff unchanged', async () => {
    const tariff = await createTariff(r.owner.client, r.accountId, { min_nmd_kva: 16, max_nmd_kva: 100 });
    const res = await r.owner.client.put(`${base}/${tariff.id}`, { account_id: r.accountId, min_nmd_kva: 101 });
    expect([res.status, res.body]).toEqual([400, invalid('max_nmd_kva: Must be at least min_nmd_kva')]);
    const read = await r.owner.client.get(`${base}/${tariff.id}`, { account_id: r.accountId });
    expect(read.body.data).toMatchObject({ min_nmd_kva: 16, max_nmd_kva: 100 });
  });
});

describe('versions of one family', () => {
  const version = (family: string, effective_from: string, effective_to: string, owner = r) =>
    owner.owner.client.post(base, tariffBody(owner.accountId, { family, effective_from, effective_to }));

  it('takes versions one after the other, refuses one whose dates overlap another (409) and creates nothing', async () => {
    expect((await version('yearly', '2025-04-01', '2026-03-31')).status).toBe(201);
    expect((await version('yearly', '2026-04-01', '2027-03-31')).status).toBe(201);
    const overlapping = await version('yearly', '2026-03-31', '2026-12-31');
    expect([overlapping.status, overlapping.body]).toEqual([409, OVERLAP]);
    const [row] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM tariffs WHERE account_id = $1 AND family = $2',
      [r.accountId, 'yearly'],
    );
    expect(row!.n).toBe(2);
  });

  it('refuses an update that moves a version onto another or into its family (409), and leaves it unchanged', async () => {
    const first = (await version('moving', '2025-04-01', '2026-03-31')).body.data;
    const other = await createTariff(r.owner.client, r.accountId, {
      family: 'elsewhere',
      effective_from: '2025-06-01',
      effective_to: '2025-06-30',
    });
    const moved = await r.owner.client.put(`${base}/${first.id}`, { account_id: r.accountId, family: 'elsewhere' });
    expect([moved.status, moved.body]).toEqual([409, OVERLAP]);
    const second = (await version('moving', '2026-04-01', '2027-03-31')).body.data;
    const stretched = await r.owner.client.put(`${base}/${second.id}`, {
      account_id: r.accountId,
      effective_from: '2026-03-01',
    });
    expect([stretched.status, stretched.body]).toEqual([409, OVERLAP]);
    const read = await r.owner.client.get(`${base}/${second.id}`, { account_id: r.accountId });
    expect(read.body.data.effective_from).toBe('2026-04-01');
    expect((await r.owner.client.get(`${base}/${other.id}`, { account_id: r.accountId })).body.data.family).toBe(
      'elsewhere',
    );
  });

  it('lets another organization, a tariff without a family and a deleted version overlap', async () => {
    const another = await organizationWithRoles(t.app);
    expect((await version('shared-name', '2025-01-01', '2025-12-31')).status).toBe(201);
    expect((await version('shared-name', '2025-01-01', '2025-12-31', another)).status).toBe(201);
    const deleted = (await version('deleted-one', '2025-01-01', '2025-12-31')).body.data;
    expect((await r.owner.client.delete(`${base}/${deleted.id}`, { account_id: r.accountId })).status).toBe(204);
    expect((await version('deleted-one', '2025-01-01', '2025-12-31')).status).toBe(201);
    expect((await r.owner.client.post(base, tariffBody(r.accountId))).status).toBe(201);
    expect((await r.owner.client.post(base, tariffBody(r.accountId))).status).toBe(201);
  });
});

describe('the catalogue', () => {
  it('gives every electricity tariff a family and the suppliers’ conditions', async () => {
    const list = (await r.member.client.get(catalogue, { limit: 100 })).body.data as Record<string, unknown>[];
    const electricity = list.filter((row) => row.meter_type === 'ELECTRICITY');
    expect(electricity.filter((row) => row.family === null)).toEqual([]);
    const conditions = (id: number) => {
      const row = list.find((tariff) => tariff.id === id)!;
      return [row.family, row.customer_classes, row.min_nmd_kva, row.max_nmd_kva];
    };
    expect(conditions(8)).toEqual(['eskom-megaflex', null, 1000, null]);
    expect(conditions(19)).toEqual(['eskom-megaflex', null, 1000, null]);
    expect(conditions(18)).toEqual(['eskom-miniflex', null, 16, 5000]);
    expect(conditions(3)).toEqual(['eskom-homelight-20a', ['RESIDENTIAL'], null, 4.6]);
    expect(conditions(16)).toEqual(['eskom-homepower', ['RESIDENTIAL'], null, 100]);
    expect(conditions(17)).toEqual(['eskom-homeflex-1', ['RESIDENTIAL'], null, 100]);
    expect(conditions(10)).toEqual(['city-power-business-tou', ['COMMERCIAL', 'INDUSTRIAL'], null, null]);
    const single = await r.member.client.get(`${catalogue}/19`);
    expect(single.body.data).toMatchObject({ family: 'eskom-megaflex', min_nmd_kva: 1000 });
  });

  it('clones the conditions and the family; a second copy of one version overlaps (409) unless it names another family or none', async () => {
    const org = await organizationWithRoles(t.app);
    const first = await org.owner.client.post(`${catalogue}/18/clone`, { account_id: org.accountId });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      family: 'eskom-miniflex',
      customer_classes: null,
      min_nmd_kva: 16,
      max_nmd_kva: 5000,
      cloned_from: 18,
    });
    const again = await org.owner.client.post(`${catalogue}/18/clone`, { account_id: org.accountId });
    expect([again.status, again.body]).toEqual([409, OVERLAP]);
    const renamed = await org.owner.client.post(`${catalogue}/18/clone`, {
      account_id: org.accountId,
      family: 'north-miniflex',
    });
    expect([renamed.status, renamed.body.data.family, renamed.body.data.min_nmd_kva]).toEqual([
      201,
      'north-miniflex',
      16,
    ]);
    const outside = await org.owner.client.post(`${catalogue}/18/clone`, { account_id: org.accountId, family: null });
    expect([outside.status, outside.body.data.family]).toEqual([201, null]);
    const previousYear = await org.owner.client.post(`${catalogue}/7/clone`, { account_id: org.accountId });
    expect([previousYear.status, previousYear.body.data.family]).toEqual([201, 'eskom-miniflex']);
  });
});
