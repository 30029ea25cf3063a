import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ingest } from '../../../test/helpers/timeseries-factories.ts';

// Extensions §13.1: which tariffs a building may take, each priced through its family's versions,
// and the recommendation. The catalogue's Eskom Miniflex 2025/26 (7) and 2026/27 (18) are one
// family; Megaflex 2026/27 (19) takes NMDs from 1,000 kVA; City Power Business TOU (10) is another
// supplier's; the City of Cape Town's water tariff (13) prices no electricity.

const MINIFLEX_2025 = 7;
const MINIFLEX_2026 = 18;
const MEGAFLEX_2026 = 19;
const CITY_POWER_BUSINESS = 10;
const HOMELIGHT_20A_2025 = 3;
const WATER = 13;
const YEAR = { start: '2025-11-01T00:00:00+02:00', end: '2026-11-01T00:00:00+02:00' };
const APRIL_2026 = '2026-04-01T00:00:00+02:00';
const DAY_MS = 86_400_000;

let t: TestApp;
let org: OrganizationWithRoles;

const compare = (blockId: number, query: Record<string, string>) =>
  org.member.client.get(`/api/v1/building_blocks/${blockId}/tariff-comparison`, {
    account_id: org.accountId,
    ...query,
  });

/** 10 kWh at 50 kVA at noon of every local day of [start, end). */
function dailyReadings(start: string, end: string, kva = 50) {
  const days = (Date.parse(end) - Date.parse(start)) / DAY_MS;
  return Array.from({ length: days }, (_, i) => ({
    ts: new Date(Date.parse(start) + i * DAY_MS + 12 * 3_600_000).toISOString(),
    import_kwh: 10,
    kva,
  }));
}

/** A block of the class with a grid meter and tariff; the meter's readings given. */
async function supply(
  buildingType: string,
  meterFields: Record<string, unknown>,
  tariffId: number,
  readings: object[],
) {
  const block = await createBlock(org.owner.client, org.accountId, { building_type: buildingType });
  const meter = await createMeter(org.owner.client, org.accountId, block.id, meterFields);
  await ingest(org.owner.client, org.accountId, meter.meter_sn, readings as never);
  const config = await org.owner.client.put(`/api/v1/building_blocks/${block.id}/config`, {
    account_id: org.accountId,
    grid_meter_id: meter.id,
    grid_tariff_id: tariffId,
  });
  expect(config.status, JSON.stringify(config.body)).toBe(200);
  return { blockId: block.id as number, meterSn: meter.meter_sn as string };
}

async function clone(catalogueId: number, fields: Record<string, unknown> = {}) {
  const res = await org.owner.client.post(`/api/v1/tariffs/catalogue/${catalogueId}/clone`, {
    account_id: org.accountId,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as number;
}

/** A FLAT tariff of the organization with one energy price, untaxed. */
async function flat(price: number, fields: Record<string, unknown> = {}) {
  const { id } = await createTariff(org.owner.client, org.accountId, {
    name: `Flat ${price}`,
    effective_from: '2020-01-01',
    effective_to: '2030-12-31',
    ...fields,
  });
  await createItems(org.owner.client, id, [{ item_type_code: 'IMPORT_ENERGY', price, season: 'ALL_YEAR' }]);
  return id as number;
}

type Candidate = { tariff_id: number; total: number | null; eligible: boolean; reasons: string[] };

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

describe('an office on Eskom with an NMD of 400 kVA, over the year to 31 October 2026', () => {
  let office: { blockId: number; meterSn: string };
  let current: number;
  beforeAll(async () => {
    current = await clone(MINIFLEX_2025, { family: null, name: 'Our Miniflex, never updated' });
    office = await supply('COMMERCIAL', { notified_max_demand_kva: 400 }, current, dailyReadings(YEAR.start, YEAR.end));
  });

  const cost = async (tariffId: number, start: string, end: string) => {
    const res = await org.member.client.get(`/api/v1/tariffs/${tariffId}/cost`, {
      account_id: org.accountId,
      meter_sn: office.meterSn,
      start,
      end,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { total: number; months: { month: string; total: number }[] };
  };

  it('prices a named version through its family: March on 2025/26 and April on 2026/27', async () => {
    const res = await compare(office.blockId, { ...YEAR, tariff_ids: String(MINIFLEX_2026) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [candidate] = res.body.data.candidates;
    const before = await cost(MINIFLEX_2025, YEAR.start, APRIL_2026);
    const after = await cost(MINIFLEX_2026, APRIL_2026, YEAR.end);
    expect(candidate).toMatchObject({
      tariff_id: MINIFLEX_2026,
      family: 'eskom-miniflex',
      eligible: true,
      reasons: [],
      nmd_kva_used: 400,
      total: Math.round((before.total + after.total) * 100) / 100,
      months: [...before.months, ...after.months].map(({ month, total }) => ({ month, total })),
    });
    expect(candidate.months).toHaveLength(12);
    expect(candidate.warnings.filter((w: string) => w.includes('effective dates'))).toEqual([]);
    expect(res.body.data.warnings).toEqual([]);
  });

  it('by default compares the supplier’s eligible tariffs in force on the last day, one per family', async () => {
    const res = await compare(office.blockId, YEAR);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Eskom's tariffs in force on 31 October 2026 that a 400 kVA commercial supply may take: Miniflex
    // 2026/27 only (Megaflex from 1,000 kVA, Homepower and Homeflex residential); City Power's and the
    // organization's own 2025/26 copy (not in force) are not candidates.
    expect(res.body.data.candidates.map((c: Candidate) => [c.tariff_id, c.eligible])).toEqual([[MINIFLEX_2026, true]]);
    const copy = await clone(MINIFLEX_2026);
    const again = await compare(office.blockId, YEAR);
    expect(again.body.data.candidates.map((c: Candidate) => c.tariff_id)).toEqual([copy]);
    expect((await org.owner.client.delete(`/api/v1/tariffs/${copy}`, { account_id: org.accountId })).status).toBe(204);
  });

  it('names why a named tariff may not be taken', async () => {
    const res = await compare(office.blockId, {
      ...YEAR,
      tariff_ids: [CITY_POWER_BUSINESS, MEGAFLEX_2026, HOMELIGHT_20A_2025].join(','),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const reasons = Object.fromEntries(res.body.data.candidates.map((c: Candidate) => [c.tariff_id, c.reasons]));
    expect(reasons).toEqual({
      [CITY_POWER_BUSINESS]: ['not in force on 2026-10-31', "another supplier's area (City Power Johannesburg)"],
      [MEGAFLEX_2026]: ['NMD 400 kVA below the minimum 1000 kVA'],
      [HOMELIGHT_20A_2025]: [
        'not for COMMERCIAL supplies',
        'NMD 400 kVA above the maximum 4.6 kVA',
        'not in force on 2026-10-31',
      ],
    });
    expect(res.body.data.candidates.every((c: Candidate) => !c.eligible)).toBe(true);
  });

  it('lists a tariff that prices none of the energy with total null, after the others, whatever its fixed charges', async () => {
    const fixedOnly = await createTariff(org.owner.client, org.accountId, {
      name: 'Fixed charges only',
      effective_from: '2025-01-01',
      effective_to: '2027-12-31',
    });
    await createItems(org.owner.client, fixedOnly.id, [{ item_type_code: 'SERVICE', price: 1, season: 'ALL_YEAR' }]);
    const res = await compare(office.blockId, { ...YEAR, tariff_ids: `${WATER},${fixedOnly.id},${MINIFLEX_2026}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const candidates = res.body.data.candidates;
    expect(candidates.map((c: Candidate) => [c.tariff_id, c.total === null])).toEqual([
      [MINIFLEX_2026, false],
      [WATER, true],
      [fixedOnly.id, true],
    ]);
    for (const unpriced of candidates.slice(1)) {
      expect(unpriced).toMatchObject({
        difference: null,
        months: [],
        complete: false,
        warnings: ["Not priced: the tariff prices none of the period's energy"],
      });
    }
    expect(candidates[1].reasons).toContain('not an electricity tariff (WATER)');
  });
});

describe('the NMD of a meter without one', () => {
  let site: { blockId: number };
  const PERIOD = { start: '2026-10-01T00:00:00+02:00', end: '2026-11-01T00:00:00+02:00' };
  beforeAll(async () => {
    const current = await clone(MINIFLEX_2026, { family: 'nmd-tests' });
    const readings = dailyReadings(PERIOD.start, PERIOD.end);
    // The highest half hour of the year before the end, in September: 1,200.4 kVA.
    readings.push({ ts: '2026-09-15T10:00:00+02:00', import_kwh: 600, kva: 1200.4 });
    site = await supply('INDUSTRIAL', {}, current, readings);
  });

  it('is estimated from the highest half hour of the 12 months before the end, rounded up, and said', async () => {
    const res = await compare(site.blockId, { ...PERIOD, tariff_ids: `${MEGAFLEX_2026},${MINIFLEX_2026}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.warnings).toEqual(['NMD estimated from the highest demand: 1201 kVA']);
    expect(
      res.body.data.candidates.map((c: Candidate & { nmd_kva_used: number }) => [c.tariff_id, c.nmd_kva_used]),
    ).toEqual(
      expect.arrayContaining([
        [MEGAFLEX_2026, 1201],
        [MINIFLEX_2026, 1201],
      ]),
    );
    expect(res.body.data.candidates.every((c: Candidate) => c.eligible)).toBe(true);
  });

  it('takes a what-if nmd_kva instead, and prices the capacity charges on it', async () => {
    const small = await compare(site.blockId, { ...PERIOD, tariff_ids: String(MEGAFLEX_2026), nmd_kva: '500' });
    const large = await compare(site.blockId, { ...PERIOD, tariff_ids: String(MEGAFLEX_2026), nmd_kva: '2000.5' });
    expect([small.status, large.status]).toEqual([200, 200]);
    expect(small.body.data.warnings).toEqual([]);
    expect(small.body.data.candidates[0]).toMatchObject({
      nmd_kva_used: 500,
      eligible: false,
      reasons: ['NMD 500 kVA below the minimum 1000 kVA'],
    });
    expect(large.body.data.candidates[0]).toMatchObject({ nmd_kva_used: 2000.5, eligible: true, reasons: [] });
    expect(large.body.data.candidates[0].total).toBeGreaterThan(small.body.data.candidates[0].total);
    const bad = await compare(site.blockId, { ...PERIOD, nmd_kva: '-1' });
    expect([bad.status, bad.body.error]).toEqual([
      400,
      'nmd_kva: Must be a number in plain decimal digits, at most 3 decimals',
    ]);
  });
});

describe('the recommendation', () => {
  // One local day of 48 half hours of 1 kWh: a complete bill of 48 kWh.
  const DAY = { start: '2026-10-05T00:00:00+02:00', end: '2026-10-06T00:00:00+02:00' };
  const halfHours = (start: string, count = 48) =>
    Array.from({ length: count }, (_, i) => ({
      ts: new Date(Date.parse(start) + i * 1_800_000).toISOString(),
      import_kwh: 1,
      kva: 2,
    }));
  let site: { blockId: number };
  let cheap: number;
  let cheapest: number;
  let almost: number;
  beforeAll(async () => {
    const current = await flat(3, { dso_id: 1 });
    cheap = await flat(1, { dso_id: 1 });
    // Cheaper still, but residential only.
    cheapest = await flat(0.5, { dso_id: 1, customer_classes: ['RESIDENTIAL'] });
    almost = await flat(2.98, { dso_id: 1 });
    site = await supply('COMMERCIAL', { notified_max_demand_kva: 10 }, current, halfHours(DAY.start));
  });

  it('is the cheapest eligible, complete candidate in force that saves more than 1 %', async () => {
    const res = await compare(site.blockId, { ...DAY, tariff_ids: `${cheapest},${cheap},${almost}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Current 48 kWh x 3.00 = 144.00; the 1.00 tariff 48.00 saves 96.00 (66.67 %); the 0.50 one is residential.
    expect(res.body.data.current).toMatchObject({ total: 144, complete: true });
    expect(res.body.data.candidates.map((c: Candidate) => [c.tariff_id, c.total, c.eligible])).toEqual([
      [cheapest, 24, false],
      [cheap, 48, true],
      [almost, 143.04, true],
    ]);
    expect(res.body.data.recommendation).toEqual({
      tariff_id: cheap,
      name: 'Flat 1',
      family: null,
      saving: 96,
      saving_pct: 66.67,
    });
    expect(res.body.data.recommendation_reason).toBeNull();
  });

  it('is null with the reason otherwise', async () => {
    const reasonOf = async (query: Record<string, string>) => {
      const res = await compare(site.blockId, query);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.recommendation).toBeNull();
      return res.body.data.recommendation_reason;
    };
    // 2.98 saves 0.96, under 1 % of 144.00.
    expect(await reasonOf({ ...DAY, tariff_ids: String(almost) })).toBe(
      'the current tariff is the cheapest eligible one',
    );
    expect(await reasonOf({ ...DAY, tariff_ids: String(cheapest) })).toBe('no eligible candidate');
    // The next day has no readings.
    expect(await reasonOf({ start: DAY.start, end: '2026-10-07T00:00:00+02:00', tariff_ids: String(cheap) })).toBe(
      'the current bill is not complete',
    );
  });
});
