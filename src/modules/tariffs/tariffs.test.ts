import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_REQUIRED,
  conflict,
  FORBIDDEN_NOT_MEMBER,
  FORBIDDEN_ROLE,
  invalid,
  invalidPath,
  invalidQuery,
  notFound,
  ownedByAnother,
  READ_ONLY,
} from '../../../test/helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertTransition,
} from '../../../test/helpers/sql-fixtures.ts';
import { createItems, createTariff, tariffBody, UNSET_ITEM_FIELDS } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { CURRENCIES, METER_TYPES } from './tariff-enums.ts';
import { CATALOGUE_ACCOUNT_ID } from './tariffs.model.ts';

let t: TestApp;
/** For the tests that neither count nor list the organization's tariffs. */
let shared: OrganizationWithRoles;
/** For the refusals, each of which must leave the organization without a tariff. */
let untouched: OrganizationWithRoles;
beforeAll(async () => {
  t = await startTestApp();
  [shared, untouched] = await Promise.all([organizationWithRoles(t.app), organizationWithRoles(t.app)]);
});
afterAll(async () => t.close());

const base = '/api/v1/tariffs';
const FORBIDDEN_FOREIGN = ownedByAnother('Tariff');
const NOT_FOUND = notFound('Tariff');
const ESKOM = { id: 1, name: 'Eskom', tz: 'Africa/Johannesburg' };

async function countTariffs(
  client: { get: (url: string, query?: Record<string, unknown>) => Promise<{ body: any }> },
  accountId: string,
) {
  return (await client.get(base, { account_id: accountId })).body.count;
}

describe('create', () => {
  it('creates with the defaults and answers the record with empty tariff_items and dso null', async () => {
    const r = shared;
    const res = await r.owner.client.post(base, tariffBody(r.accountId));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: {
        id: expect.any(Number),
        name: 'Test tariff',
        description: null,
        account_id: r.accountId,
        dso_id: null,
        tou_schedule_id: null,
        meter_type: 'ELECTRICITY',
        tariff_type: 'FLAT',
        currency: 'ZAR',
        tax_rate: 0,
        is_active: true,
        effective_from: '2025-01-01',
        effective_to: '2025-12-31',
        timezone: 'Africa/Johannesburg',
        notes: null,
        cloned_from: null,
        customer_classes: null,
        min_nmd_kva: null,
        max_nmd_kva: null,
        family: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        has_transition: false,
        tariff_items: [],
        dso: null,
      },
    });
    expect(res.body.data.id).toBeGreaterThan(1000);
  });

  it('stores every field given, nests the DSO, and accepts ISO date-times for the dates', async () => {
    const r = shared;
    const fields = {
      name: 'Plant TOU',
      description: 'Seasonal',
      timezone: 'Europe/London',
      notes: 'From the 2025 schedule',
      meter_type: 'HVAC',
      tariff_type: 'TIME_OF_USE',
      dso_id: 1,
      tou_schedule_id: 3,
      effective_to: '2026-03-31',
      currency: 'EUR',
      tax_rate: 15.5,
      is_active: false,
      cloned_from: 6,
    };
    const res = await r.admin.client.post(
      base,
      tariffBody(r.accountId, { ...fields, effective_from: '2025-04-01T00:00:00+02:00' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ ...fields, effective_from: '2025-04-01', dso: ESKOM });
    const read = await r.member.client.get(`${base}/${res.body.data.id}`, { account_id: r.accountId });
    expect(read.body).toEqual(res.body);
  });

  it('accepts every meter type, tariff type and currency of the enumerations', async () => {
    const r = shared;
    for (const meter_type of METER_TYPES) {
      const res = await r.owner.client.post(base, tariffBody(r.accountId, { meter_type }));
      expect([res.status, res.body.data.meter_type]).toEqual([201, meter_type]);
    }
    for (const currency of CURRENCIES) {
      const res = await r.owner.client.post(base, tariffBody(r.accountId, { currency }));
      expect([res.status, res.body.data.currency]).toEqual([201, currency]);
    }
    for (const [tariff_type, tou_schedule_id] of [
      ['FLAT', null],
      ['BLOCK', null],
      ['DYNAMIC', null],
      ['TIME_OF_USE', 4],
    ]) {
      const res = await r.owner.client.post(base, tariffBody(r.accountId, { tariff_type, tou_schedule_id }));
      expect([res.status, res.body.data.tariff_type, res.body.data.tou_schedule_id]).toEqual([
        201,
        tariff_type,
        tou_schedule_id,
      ]);
    }
    for (const tax_rate of [0, 100]) {
      expect((await r.owner.client.post(base, tariffBody(r.accountId, { tax_rate }))).body.data.tax_rate).toBe(
        tax_rate,
      );
    }
  });

  it.each([
    [{ name: undefined }, 'name: Invalid input: expected string, received undefined'],
    [{ name: '  ' }, 'name: Too small: expected string to have >=1 characters'],
    [{ effective_from: undefined }, 'effective_from: Invalid input: expected string, received undefined'],
    [{ effective_to: '31/12/2025' }, 'effective_to: Invalid ISO 8601 date'],
    [{ effective_to: '2024-12-31' }, 'effective_to: Must be on or after effective_from'],
    [{ tariff_type: 'TIME_OF_USE' }, 'tou_schedule_id: Required for a TIME_OF_USE tariff'],
    [{ tariff_type: 'TIME_OF_USE', tou_schedule_id: null }, 'tou_schedule_id: Required for a TIME_OF_USE tariff'],
    [{ tariff_type: 'BLOCK', tou_schedule_id: 3 }, 'tou_schedule_id: Only a TIME_OF_USE tariff may have a schedule'],
    [{ tou_schedule_id: 3 }, 'tou_schedule_id: Only a TIME_OF_USE tariff may have a schedule'],
    [{ tariff_type: 'TIME_OF_USE', tou_schedule_id: 0 }, 'tou_schedule_id: Too small: expected number to be >0'],
    [{ tax_rate: 100.01 }, 'tax_rate: Too big: expected number to be <=100'],
    [{ tax_rate: -1 }, 'tax_rate: Too small: expected number to be >=0'],
    [
      { meter_type: 'STEAM' },
      'meter_type: Invalid option: expected one of "ELECTRICITY"|"WATER"|"GAS"|"SOLAR"|"GENSET"|"HVAC"|"CARBON"|"EV"',
    ],
    [{ tariff_type: 'SPOT' }, 'tariff_type: Invalid option: expected one of "FLAT"|"TIME_OF_USE"|"BLOCK"|"DYNAMIC"'],
    [{ currency: 'XBT' }, 'currency: Invalid option: expected one of "ZAR"|"USD"|"EUR"|"GBP"|"AUD"|"CAD"|"JPY"|"CNY"'],
    [{ timezone: 'Mars/Olympus_Mons' }, 'timezone: Invalid IANA time zone'],
    [{ timezone: '+02:00' }, 'timezone: Invalid IANA time zone'],
    [{ dso_id: 'one' }, 'dso_id: Invalid input: expected number, received string'],
    [{ is_active: 'yes' }, 'is_active: Invalid input: expected boolean, received string'],
    [{ account_id: 'acme' }, 'account_id: Invalid UUID'],
  ])('rejects %j with 400', async (override, error) => {
    const r = untouched;
    const res = await r.owner.client.post(base, tariffBody(r.accountId, override));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(error));
    expect(await countTariffs(r.owner.client, r.accountId)).toBe(0);
  });

  it('rejects a DSO or schedule that does not exist (400)', async () => {
    const r = untouched;
    const dso = await r.owner.client.post(base, tariffBody(r.accountId, { dso_id: 99 }));
    expect(dso.status).toBe(400);
    expect(dso.body).toEqual(invalid('dso_id: Unknown DSO 99'));
    const schedule = await r.owner.client.post(
      base,
      tariffBody(r.accountId, { tariff_type: 'TIME_OF_USE', tou_schedule_id: 99 }),
    );
    expect(schedule.status).toBe(400);
    expect(schedule.body).toEqual(invalid('tou_schedule_id: Unknown time-of-use schedule 99'));
    expect(await countTariffs(r.owner.client, r.accountId)).toBe(0);
  });

  it('lets OWNER and ADMIN create; MEMBER and non-members get 403 and nothing is created', async () => {
    const r = await organizationWithRoles(t.app);
    expect((await r.admin.client.post(base, tariffBody(r.accountId))).status).toBe(201);
    const member = await r.member.client.post(base, tariffBody(r.accountId));
    expect(member.status).toBe(403);
    expect(member.body).toEqual(FORBIDDEN_ROLE);
    const outsider = await r.outsider.client.post(base, tariffBody(r.accountId));
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual(FORBIDDEN_NOT_MEMBER);
    expect(await countTariffs(r.owner.client, r.accountId)).toBe(1);
  });

  it('refuses a NUL character in the name with 400 naming the field, and creates nothing', async () => {
    const r = untouched;
    const res = await r.owner.client.post(base, tariffBody(r.accountId, { name: 'Home\u0000Power' }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('name: Must not contain the NUL character'));
    expect(await countTariffs(r.owner.client, r.accountId)).toBe(0);
  });

  it('refuses the catalogue account as destination with 400 Catalogue is read-only, before the 403', async () => {
    const r = shared;
    const res = await r.outsider.client.post(base, tariffBody(CATALOGUE_ACCOUNT_ID));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(READ_ONLY);
    const catalogue = await r.owner.client.get(`${base}/catalogue`);
    expect(catalogue.body.count).toBe(22);
  });

  it('answers 401 without a token, before validation', async () => {
    const res = await call(t.app, 'POST', base, { body: {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(AUTH_REQUIRED);
  });
});

describe('read', () => {
  it('nests the items, each with its blocks ordered by block_index, and the DSO', async () => {
    const r = shared;
    const tariff = await createTariff(r.owner.client, r.accountId, { tariff_type: 'BLOCK', dso_id: 1 });
    const [energy, service] = await createItems(r.owner.client, tariff.id, [
      {
        item_type_code: 'IMPORT_ENERGY',
        price: 1.9,
        season: 'ALL_YEAR',
        blocks: [
          { block_index: 2, upper_limit: null, unit_price_cents: 263 },
          { block_index: 0, upper_limit: 350, unit_price_cents: 210 },
          { block_index: 1, upper_limit: 500.5, unit_price_cents: 241 },
        ],
      },
      { item_type_code: 'SERVICE', price: 3.27 },
    ]);
    const res = await r.member.client.get(`${base}/${tariff.id}`, { account_id: r.accountId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: {
        ...tariff,
        tariff_type: 'BLOCK',
        dso_id: 1,
        dso: ESKOM,
        tariff_items: [
          {
            id: energy.id,
            tariff_id: tariff.id,
            item_type_code: 'IMPORT_ENERGY',
            price: 1.9,
            season: 'ALL_YEAR',
            ...UNSET_ITEM_FIELDS,
            tariff_blocks: [
              {
                id: expect.any(Number),
                tariff_item_id: energy.id,
                block_index: 0,
                upper_limit: 350,
                unit_price_cents: 210,
              },
              {
                id: expect.any(Number),
                tariff_item_id: energy.id,
                block_index: 1,
                upper_limit: 500.5,
                unit_price_cents: 241,
              },
              {
                id: expect.any(Number),
                tariff_item_id: energy.id,
                block_index: 2,
                upper_limit: null,
                unit_price_cents: 263,
              },
            ],
          },
          {
            id: service.id,
            tariff_id: tariff.id,
            item_type_code: 'SERVICE',
            price: 3.27,
            season: 'SUMMER',
            ...UNSET_ITEM_FIELDS,
            tariff_blocks: [],
          },
        ],
      },
    });
    expect(res.body.data).not.toHaveProperty('deleted_at');
  });

  it('answers 403 to non-members and for another organization’s tariff, 404 for an unknown id, 400 for a bad id', async () => {
    const r = shared;
    const foreign = await createTariff(r.outsider.client, r.otherAccountId, { name: 'Secret' });
    const own = await createTariff(r.owner.client, r.accountId);

    const notMember = await r.outsider.client.get(`${base}/${own.id}`, { account_id: r.accountId });
    expect([notMember.status, notMember.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
    const crossed = await r.owner.client.get(`${base}/${foreign.id}`, { account_id: r.accountId });
    expect([crossed.status, crossed.body]).toEqual([403, FORBIDDEN_FOREIGN]);
    const unknown = await r.owner.client.get(`${base}/999999`, { account_id: r.accountId });
    expect([unknown.status, unknown.body]).toEqual([404, NOT_FOUND]);
    const badId = await r.owner.client.get(`${base}/abc`, { account_id: r.accountId });
    expect([badId.status, badId.body]).toEqual([
      400,
      invalidPath('id: Must be a whole number in plain decimal digits'),
    ]);
    const noAccount = await r.owner.client.get(`${base}/${own.id}`);
    expect([noAccount.status, noAccount.body]).toEqual([
      400,
      invalidQuery('account_id: Invalid input: expected string, received undefined'),
    ]);
  });

  it('reads a catalogue tariff through the catalogue account, not through another organization', async () => {
    const r = shared;
    const viaCatalogue = await r.member.client.get(`${base}/1`, { account_id: CATALOGUE_ACCOUNT_ID });
    expect(viaCatalogue.status).toBe(200);
    expect(viaCatalogue.body.data).toMatchObject({ id: 1, account_id: CATALOGUE_ACCOUNT_ID, tariff_type: 'BLOCK' });
    const viaOwn = await r.member.client.get(`${base}/1`, { account_id: r.accountId });
    expect([viaOwn.status, viaOwn.body]).toEqual([403, FORBIDDEN_FOREIGN]);
  });
});

describe('has_transition', () => {
  it('says whether the tariff has a transition to a successor, in its reads, its list and its update', async () => {
    const org = await organizationWithRoles(t.app);
    const predecessor = await createTariff(org.owner.client, org.accountId, { name: 'Before' });
    const successor = await createTariff(org.owner.client, org.accountId, { name: 'After' });
    const transitions = `${base}/${predecessor.id}/transitions`;
    const read = async (id: number) =>
      (await org.member.client.get(`${base}/${id}`, { account_id: org.accountId })).body.data.has_transition;
    const listed = async () => {
      const res = await org.member.client.get(base, { account_id: org.accountId });
      expect(res.status).toBe(200);
      return Object.fromEntries(
        res.body.data.map((tariff: { id: number; has_transition: boolean }) => [tariff.id, tariff.has_transition]),
      );
    };
    expect(await read(predecessor.id)).toBe(false);
    expect(await org.member.client.get(transitions, { account_id: org.accountId })).toMatchObject({ status: 404 });

    const created = await org.owner.client.post(transitions, {
      account_id: org.accountId,
      successor_id: successor.id,
      effective_from: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(created.status).toBe(201);
    expect([await read(predecessor.id), await read(successor.id)]).toEqual([true, false]);
    expect(await listed()).toEqual({ [predecessor.id]: true, [successor.id]: false });
    const updated = await org.owner.client.put(`${base}/${predecessor.id}`, { account_id: org.accountId, notes: 'x' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ notes: 'x', has_transition: true });

    const removed = await org.owner.client.delete(transitions, { account_id: org.accountId });
    expect(removed.status).toBe(204);
    expect(await read(predecessor.id)).toBe(false);
  });
});

describe('list', () => {
  it('pages 10 by default, newest first, counts every match, and shows only the organization’s live tariffs', async () => {
    const r = await organizationWithRoles(t.app);
    const created = [];
    for (let i = 0; i < 12; i++) created.push(await createTariff(r.owner.client, r.accountId, { name: `Tariff ${i}` }));
    await createTariff(r.outsider.client, r.otherAccountId, { name: 'Foreign' });
    const deleted = await createTariff(r.owner.client, r.accountId, { name: 'Deleted' });
    await r.owner.client.delete(`${base}/${deleted.id}`, { account_id: r.accountId });

    const res = await r.member.client.get(base, { account_id: r.accountId });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(12);
    const { tariff_items: _items, dso: _dso, ...newest } = created[11];
    expect(res.body.data[0]).toEqual(newest);
    expect(res.body.data.map((d: { name: string }) => d.name)).toEqual(
      [11, 10, 9, 8, 7, 6, 5, 4, 3, 2].map((i) => `Tariff ${i}`),
    );
    const second = await r.member.client.get(base, { account_id: r.accountId, page: 2 });
    expect(second.body.data.map((d: { name: string }) => d.name)).toEqual(['Tariff 1', 'Tariff 0']);
    expect(second.body.count).toBe(12);
    const asc = await r.member.client.get(base, {
      account_id: r.accountId,
      sortBy: 'name',
      sortOrder: 'asc',
      limit: 3,
    });
    expect(asc.body.data.map((d: { name: string }) => d.name)).toEqual(['Tariff 0', 'Tariff 1', 'Tariff 10']);
  });

  it('filters by meter_type, tariff_type, dso_id and a case-insensitive query on name and description', async () => {
    const r = await organizationWithRoles(t.app);
    const water = await createTariff(r.owner.client, r.accountId, {
      name: 'Water steps',
      meter_type: 'WATER',
      tariff_type: 'BLOCK',
    });
    const tou = await createTariff(r.owner.client, r.accountId, {
      name: 'Plant',
      description: 'Night SAVER rate',
      tariff_type: 'TIME_OF_USE',
      tou_schedule_id: 3,
      dso_id: 1,
    });
    const flat = await createTariff(r.owner.client, r.accountId, { name: 'Flat', dso_id: 2 });
    const ids = async (query: Record<string, unknown>) =>
      (await r.owner.client.get(base, { account_id: r.accountId, ...query })).body.data.map(
        (d: { id: number }) => d.id,
      );
    expect(await ids({ meter_type: 'WATER' })).toEqual([water.id]);
    expect(await ids({ meter_type: 'ELECTRICITY' })).toEqual([flat.id, tou.id]);
    expect(await ids({ tariff_type: 'TIME_OF_USE' })).toEqual([tou.id]);
    expect(await ids({ dso_id: 2 })).toEqual([flat.id]);
    expect(await ids({ query: 'saver' })).toEqual([tou.id]);
    expect(await ids({ query: 'STEPS' })).toEqual([water.id]);
    expect(await ids({ query: 'nothing' })).toEqual([]);
    expect(await ids({ meter_type: 'ELECTRICITY', dso_id: 1 })).toEqual([tou.id]);
  });

  it.each([
    [{ limit: 101 }, 'limit: Too big: expected number to be <=100'],
    [{ limit: 0 }, 'limit: Too small: expected number to be >=1'],
    [{ page: 0 }, 'page: Too small: expected number to be >=1'],
    [{ sortBy: 'password' }, expect.stringMatching(/^sortBy: Invalid option/)],
    [{ sortOrder: 'up' }, 'sortOrder: Invalid option: expected one of "asc"|"desc"'],
    [{ meter_type: 'STEAM' }, expect.stringMatching(/^meter_type: Invalid option/)],
    [{ dso_id: 'x' }, 'dso_id: Must be a whole number in plain decimal digits'],
  ])('rejects %j with 400', async (query, error) => {
    const r = shared;
    const res = await r.owner.client.get(base, { account_id: r.accountId, ...query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery(error as string));
  });

  it('accepts limit 100 and answers 403 to non-members', async () => {
    const r = shared;
    expect((await r.owner.client.get(base, { account_id: r.accountId, limit: 100 })).status).toBe(200);
    const res = await r.outsider.client.get(base, { account_id: r.accountId });
    expect([res.status, res.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
  });
});

describe('update', () => {
  it('changes the given fields for OWNER and ADMIN and answers the nested record', async () => {
    const r = shared;
    const tariff = await createTariff(r.owner.client, r.accountId, { description: 'old' });
    await createItems(r.owner.client, tariff.id, { item_type_code: 'IMPORT_ENERGY', price: 2 });
    const changes = {
      name: 'Renamed',
      description: null,
      tariff_type: 'TIME_OF_USE',
      tou_schedule_id: 2,
      dso_id: 3,
      meter_type: 'EV',
      currency: 'USD',
      tax_rate: 7.25,
      is_active: false,
      timezone: 'America/New_York',
    };
    const res = await r.admin.client.put(`${base}/${tariff.id}`, {
      account_id: r.accountId,
      ...changes,
      effective_to: '2026-06-30T12:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...tariff,
      ...changes,
      effective_to: '2026-06-30',
      updated_at: expect.any(String),
      dso: { id: 3, name: 'City of Cape Town', tz: 'Africa/Johannesburg' },
      tariff_items: [expect.objectContaining({ item_type_code: 'IMPORT_ENERGY', price: 2 })],
    });
    expect(new Date(res.body.data.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(tariff.updated_at).getTime());
    const owner = await r.owner.client.put(`${base}/${tariff.id}`, { account_id: r.accountId, notes: 'checked' });
    expect(owner.body.data).toMatchObject({ name: 'Renamed', notes: 'checked' });
  });

  it("takes updated_by naming the signed-in user, as the contract lists it, and refuses another user's id", async () => {
    const r = shared;
    const tariff = await createTariff(r.owner.client, r.accountId);
    const own = await r.admin.client.put(`${base}/${tariff.id}`, {
      account_id: r.accountId,
      notes: 'by the admin',
      updated_by: r.admin.id.toUpperCase(),
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.data).toMatchObject({ id: tariff.id, notes: 'by the admin' });
    const [row] = await t.db.query<{ updated_by: string }>('SELECT updated_by FROM tariffs WHERE id = $1', [tariff.id]);
    expect(row!.updated_by).toBe(r.admin.id);

    const other = await r.admin.client.put(`${base}/${tariff.id}`, {
      account_id: r.accountId,
      notes: 'forged',
      updated_by: r.owner.id,
    });
    expect(other.status).toBe(400);
    expect(other.body).toEqual(
      invalid("updated_by: Must be the signed-in user's id (the change is recorded as theirs)"),
    );
    const after = await r.owner.client.get(`${base}/${tariff.id}`, { account_id: r.accountId });
    expect(after.body.data.notes).toBe('by the admin');
  });

  it('validates the tariff that would result (400) and leaves it unchanged', async () => {
    const r = shared;
    const flat = await createTariff(r.owner.client, r.accountId);
    const tou = await createTariff(r.owner.client, r.accountId, { tariff_type: 'TIME_OF_USE', tou_schedule_id: 3 });
    const cases: [number, Record<string, unknown>, string][] = [
      [flat.id, { effective_to: '2024-06-30' }, 'effective_to: Must be on or after effective_from'],
      [flat.id, { effective_from: '2026-01-01' }, 'effective_to: Must be on or after effective_from'],
      [flat.id, { tariff_type: 'TIME_OF_USE' }, 'tou_schedule_id: Required for a TIME_OF_USE tariff'],
      [flat.id, { tou_schedule_id: 3 }, 'tou_schedule_id: Only a TIME_OF_USE tariff may have a schedule'],
      [tou.id, { tou_schedule_id: null }, 'tou_schedule_id: Required for a TIME_OF_USE tariff'],
      [tou.id, { tariff_type: 'FLAT' }, 'tou_schedule_id: Only a TIME_OF_USE tariff may have a schedule'],
      [tou.id, { tou_schedule_id: 42 }, 'tou_schedule_id: Unknown time-of-use schedule 42'],
      [flat.id, { dso_id: 42 }, 'dso_id: Unknown DSO 42'],
      [flat.id, { tax_rate: 150 }, 'tax_rate: Too big: expected number to be <=100'],
      [flat.id, { currency: 'BTC' }, expect.stringMatching(/^currency: Invalid option/) as unknown as string],
      [flat.id, { name: '' }, 'name: Too small: expected string to have >=1 characters'],
      [flat.id, { timezone: 'Nowhere/Special' }, 'timezone: Invalid IANA time zone'],
      [flat.id, { name: 'Home\u0000Power' }, 'name: Must not contain the NUL character'],
      [flat.id, { description: 'a\u0000b' }, 'description: Must not contain the NUL character'],
      [flat.id, { notes: 'a\u0000b' }, 'notes: Must not contain the NUL character'],
    ];
    for (const [id, change, error] of cases) {
      const res = await r.owner.client.put(`${base}/${id}`, { account_id: r.accountId, ...change });
      expect([res.status, res.body]).toEqual([400, invalid(error)]);
    }
    expect((await r.owner.client.get(`${base}/${flat.id}`, { account_id: r.accountId })).body.data).toEqual(flat);
    expect((await r.owner.client.get(`${base}/${tou.id}`, { account_id: r.accountId })).body.data).toEqual(tou);
    const toFlat = await r.owner.client.put(`${base}/${tou.id}`, {
      account_id: r.accountId,
      tariff_type: 'FLAT',
      tou_schedule_id: null,
    });
    expect(toFlat.body.data).toMatchObject({ tariff_type: 'FLAT', tou_schedule_id: null });
  });

  it('answers 403 to MEMBER, non-members and for another organization’s tariff, 404 for an unknown one; nothing changes', async () => {
    const r = shared;
    const own = await createTariff(r.owner.client, r.accountId);
    const foreign = await createTariff(r.outsider.client, r.otherAccountId);
    const member = await r.member.client.put(`${base}/${own.id}`, { account_id: r.accountId, name: 'X' });
    expect([member.status, member.body]).toEqual([403, FORBIDDEN_ROLE]);
    const outsider = await r.outsider.client.put(`${base}/${own.id}`, { account_id: r.accountId, name: 'X' });
    expect([outsider.status, outsider.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
    const crossed = await r.owner.client.put(`${base}/${foreign.id}`, { account_id: r.accountId, name: 'X' });
    expect([crossed.status, crossed.body]).toEqual([403, FORBIDDEN_FOREIGN]);
    const unknown = await r.owner.client.put(`${base}/999999`, { account_id: r.accountId, name: 'X' });
    expect([unknown.status, unknown.body]).toEqual([404, NOT_FOUND]);
    expect((await r.owner.client.get(`${base}/${own.id}`, { account_id: r.accountId })).body.data).toEqual(own);
    expect((await r.outsider.client.get(`${base}/${foreign.id}`, { account_id: r.otherAccountId })).body.data).toEqual(
      foreign,
    );
  });

  it('refuses to change a catalogue tariff (400 before 403) and leaves it unchanged', async () => {
    const r = shared;
    const before = (await r.owner.client.get(`${base}/catalogue/1`)).body.data;
    for (const accountId of [r.accountId, CATALOGUE_ACCOUNT_ID]) {
      const res = await r.member.client.put(`${base}/1`, { account_id: accountId, name: 'Hijacked' });
      expect([res.status, res.body]).toEqual([400, READ_ONLY]);
    }
    const own = await createTariff(r.owner.client, r.accountId);
    const intoCatalogue = await r.owner.client.put(`${base}/${own.id}`, {
      account_id: CATALOGUE_ACCOUNT_ID,
      name: 'X',
    });
    expect([intoCatalogue.status, intoCatalogue.body]).toEqual([400, READ_ONLY]);
    expect((await r.owner.client.get(`${base}/catalogue/1`)).body.data).toEqual(before);
  });

  it('deletes the tariff when deleted_at is given', async () => {
    const r = shared;
    const tariff = await createTariff(r.owner.client, r.accountId);
    const res = await r.owner.client.put(`${base}/${tariff.id}`, {
      account_id: r.accountId,
      deleted_at: '2025-05-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(tariff.id);
    expect((await r.owner.client.get(`${base}/${tariff.id}`, { account_id: r.accountId })).status).toBe(404);
  });
});

describe('delete', () => {
  it('soft-deletes: 204, then 404 on read, update and delete, gone from the list, row kept', async () => {
    const r = await organizationWithRoles(t.app);
    const tariff = await createTariff(r.admin.client, r.accountId);
    const res = await r.admin.client.delete(`${base}/${tariff.id}`, { account_id: r.accountId });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    for (const reply of [
      await r.owner.client.get(`${base}/${tariff.id}`, { account_id: r.accountId }),
      await r.owner.client.put(`${base}/${tariff.id}`, { account_id: r.accountId, name: 'Back' }),
      await r.owner.client.delete(`${base}/${tariff.id}`, { account_id: r.accountId }),
      await r.owner.client.get(`${base}/${tariff.id}/items`),
    ]) {
      expect([reply.status, reply.body]).toEqual([404, NOT_FOUND]);
    }
    expect(await countTariffs(r.owner.client, r.accountId)).toBe(0);
    const [row] = await t.db.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM tariffs WHERE id = $1', [
      tariff.id,
    ]);
    expect(row?.deleted_at).toBeInstanceOf(Date);
  });

  it('answers 409 while a meter, a dashboard config or a transition refers to the tariff', async () => {
    const r = await organizationWithRoles(t.app);
    const [metered, configured, predecessor, successor] = [
      await createTariff(r.owner.client, r.accountId),
      await createTariff(r.owner.client, r.accountId),
      await createTariff(r.owner.client, r.accountId),
      await createTariff(r.owner.client, r.accountId),
    ];
    const block = await insertBuildingBlock(t.db, r.accountId);
    await insertMeter(t.db, r.accountId, block, { tariffId: metered.id });
    await insertDashboardConfig(t.db, r.accountId, block, { load: configured.id });
    await insertTransition(t.db, r.accountId, predecessor.id, successor.id, new Date(Date.now() + 30 * 86_400_000));
    const expected: [number, string][] = [
      [metered.id, 'The tariff is still referenced by a meter'],
      [configured.id, 'The tariff is still referenced by an energy dashboard config'],
      [predecessor.id, 'The tariff is still referenced by a tariff transition'],
      [successor.id, 'The tariff is still referenced by a tariff transition'],
    ];
    for (const [id, error] of expected) {
      const res = await r.owner.client.delete(`${base}/${id}`, { account_id: r.accountId });
      expect([res.status, res.body]).toEqual([409, conflict(error)]);
      const viaUpdate = await r.owner.client.put(`${base}/${id}`, {
        account_id: r.accountId,
        name: 'Gone',
        deleted_at: new Date().toISOString(),
      });
      expect([viaUpdate.status, viaUpdate.body.error]).toEqual([409, error]);
    }
    expect(await countTariffs(r.owner.client, r.accountId)).toBe(4);
    expect((await r.owner.client.get(`${base}/${metered.id}`, { account_id: r.accountId })).body.data.name).toBe(
      'Test tariff',
    );
  });

  it('answers 403 to MEMBER, non-members and for another organization’s tariff, 404 unknown, 400 for the catalogue', async () => {
    const r = await organizationWithRoles(t.app);
    const own = await createTariff(r.owner.client, r.accountId);
    const foreign = await createTariff(r.outsider.client, r.otherAccountId);
    const cases: [Awaited<ReturnType<typeof r.owner.client.delete>>, number, unknown][] = [
      [await r.member.client.delete(`${base}/${own.id}`, { account_id: r.accountId }), 403, FORBIDDEN_ROLE],
      [await r.outsider.client.delete(`${base}/${own.id}`, { account_id: r.accountId }), 403, FORBIDDEN_NOT_MEMBER],
      [await r.owner.client.delete(`${base}/${foreign.id}`, { account_id: r.accountId }), 403, FORBIDDEN_FOREIGN],
      [await r.owner.client.delete(`${base}/999999`, { account_id: r.accountId }), 404, NOT_FOUND],
      [await r.owner.client.delete(`${base}/1`, { account_id: r.accountId }), 400, READ_ONLY],
      [await r.outsider.client.delete(`${base}/1`, { account_id: CATALOGUE_ACCOUNT_ID }), 400, READ_ONLY],
    ];
    for (const [res, status, body] of cases) expect([res.status, res.body]).toEqual([status, body]);
    expect(await countTariffs(r.owner.client, r.accountId)).toBe(1);
    expect(await countTariffs(r.outsider.client, r.otherAccountId)).toBe(1);
    expect((await r.owner.client.get(`${base}/catalogue/1`)).status).toBe(200);
  });
});

describe('schedule', () => {
  it('answers the tariff’s schedule with its DSO and the DSO’s seasons, each with its rules', async () => {
    const r = shared;
    const tariff = await createTariff(r.owner.client, r.accountId, { tariff_type: 'TIME_OF_USE', tou_schedule_id: 4 });
    const res = await r.member.client.get(`${base}/${tariff.id}/schedule`, { account_id: r.accountId });
    expect(res.status).toBe(200);
    const schedule = res.body.data;
    expect(schedule).toMatchObject({
      id: 4,
      dso_id: 2,
      name: 'City Power TOU (illustrative)',
      version: 1,
      tz: 'Africa/Johannesburg',
      is_active: true,
      holiday_default: 'SATURDAY',
      dso: { id: 2, name: 'City Power Johannesburg', tz: 'Africa/Johannesburg' },
    });
    expect(schedule.seasons.map((s: { id: number; label: string }) => [s.id, s.label])).toEqual([
      [4, 'WINTER'],
      [5, 'SUMMER'],
      [6, 'ALL_YEAR'],
    ]);
    expect(schedule.seasons[0]).toMatchObject({ dso_id: 2, date_start: '2025-06-01', date_end: '2025-08-31' });
    expect(schedule.seasons[0].tou_rules[1]).toEqual({
      id: 402,
      schedule_id: 4,
      season_id: 4,
      day_type: 'WEEKDAY',
      period: 'PEAK',
      start_minute: 360,
      end_minute: 540,
    });
    expect(schedule.seasons[2].tou_rules).toEqual([]);
    const reference = await r.member.client.get('/api/v1/tou_schedules/4');
    expect(reference.body.data).toEqual(schedule);
  });

  it('uses schedule 3 when a TIME_OF_USE tariff has none', async () => {
    const r = shared;
    const tariff = await createTariff(r.owner.client, r.accountId, { tariff_type: 'TIME_OF_USE', tou_schedule_id: 1 });
    // The API never stores a TIME_OF_USE tariff without a schedule; older rows may have none.
    await t.db.query('UPDATE tariffs SET tou_schedule_id = NULL WHERE id = $1', [tariff.id]);
    const res = await r.owner.client.get(`${base}/${tariff.id}/schedule`, { account_id: r.accountId });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: 3, dso_id: 1, version: 2 });
  });

  it('answers 400 for a tariff that is not TIME_OF_USE, 404 for an unknown one, 403 across organizations', async () => {
    const r = shared;
    const flat = await createTariff(r.owner.client, r.accountId);
    const foreign = await createTariff(r.outsider.client, r.otherAccountId, {
      tariff_type: 'TIME_OF_USE',
      tou_schedule_id: 3,
    });
    const notTou = await r.owner.client.get(`${base}/${flat.id}/schedule`, { account_id: r.accountId });
    expect([notTou.status, notTou.body]).toEqual([400, invalid(`Tariff ${flat.id} is not TIME_OF_USE`)]);
    const unknown = await r.owner.client.get(`${base}/999999/schedule`, { account_id: r.accountId });
    expect([unknown.status, unknown.body]).toEqual([404, NOT_FOUND]);
    const crossed = await r.owner.client.get(`${base}/${foreign.id}/schedule`, { account_id: r.accountId });
    expect([crossed.status, crossed.body]).toEqual([403, FORBIDDEN_FOREIGN]);
    const outsider = await r.outsider.client.get(`${base}/${flat.id}/schedule`, { account_id: r.accountId });
    expect([outsider.status, outsider.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
  });
});
