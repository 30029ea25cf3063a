import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conflict,
  FORBIDDEN_NOT_MEMBER,
  FORBIDDEN_ROLE,
  invalid,
  notFound,
  ownedByAnother,
  READ_ONLY,
} from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { CATALOGUE_ACCOUNT_ID } from '../tariffs/tariffs.model.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const blocksOf = (tariffId: number, itemId: number) => `/api/v1/tariffs/${tariffId}/items/${itemId}/blocks`;
const FORBIDDEN_FOREIGN = ownedByAnother('Tariff');
const BLOCK_NOT_FOUND = notFound('Tariff block');

const THREE_TIERS = [
  { block_index: 0, upper_limit: 350, unit_price_cents: 210 },
  { block_index: 1, upper_limit: 500, unit_price_cents: 241 },
  { block_index: 2, upper_limit: null, unit_price_cents: 263 },
];

/** An organization with a BLOCK tariff whose energy item has three tiers. */
async function setup() {
  const r = await organizationWithRoles(t.app);
  const tariff = await createTariff(r.owner.client, r.accountId, { tariff_type: 'BLOCK' });
  const [item] = await createItems(r.owner.client, tariff.id, {
    item_type_code: 'IMPORT_ENERGY',
    price: 2.1,
    blocks: THREE_TIERS,
  });
  const url = blocksOf(tariff.id, item.id);
  const blocks = item.tariff_blocks as { id: number; block_index: number }[];
  return { ...r, tariff, item, url, blocks };
}

describe('list', () => {
  it('answers the item’s blocks ordered by block_index with their count', async () => {
    const r = await setup();
    const res = await r.member.client.get(r.url);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: THREE_TIERS.map((tier, i) => ({ id: r.blocks[i]!.id, tariff_item_id: r.item.id, ...tier })),
      count: 3,
    });
    const catalogue = await r.outsider.client.get(blocksOf(13, 1301));
    expect(catalogue.body.data.map((b: { upper_limit: number | null }) => b.upper_limit)).toEqual([
      6,
      10.5,
      35,
      50,
      null,
    ]);
  });

  it('answers 404 for an item of another tariff, 403 across organizations', async () => {
    const r = await setup();
    const other = await createTariff(r.owner.client, r.accountId);
    const wrongTariff = await r.owner.client.get(blocksOf(other.id, r.item.id));
    expect([wrongTariff.status, wrongTariff.body]).toEqual([404, notFound('Tariff item')]);
    const outsider = await r.outsider.client.get(r.url);
    expect([outsider.status, outsider.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
    const foreign = await r.outsider.client.get(r.url, { account_id: r.otherAccountId });
    expect([foreign.status, foreign.body]).toEqual([403, FORBIDDEN_FOREIGN]);
  });
});

describe('replace', () => {
  it('replaces the whole set (201) and an empty array clears it', async () => {
    const r = await setup();
    const res = await r.admin.client.post(r.url, [
      { block_index: 1, upper_limit: null, unit_price_cents: 395 },
      { block_index: 0, upper_limit: 600 },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: [
        { id: expect.any(Number), tariff_item_id: r.item.id, block_index: 0, upper_limit: 600, unit_price_cents: 0 },
        { id: expect.any(Number), tariff_item_id: r.item.id, block_index: 1, upper_limit: null, unit_price_cents: 395 },
      ],
    });
    expect((await r.owner.client.get(r.url)).body.data).toEqual(res.body.data);
    const cleared = await r.owner.client.post(r.url, []);
    expect([cleared.status, cleared.body.data]).toEqual([201, []]);
    expect((await r.owner.client.get(r.url)).body.count).toBe(0);
  });

  it.each([
    [
      [
        { block_index: 0, upper_limit: 10 },
        { block_index: 0, upper_limit: 20 },
      ],
      '1.block_index: Duplicate block_index 0',
    ],
    [
      [
        { block_index: 0, upper_limit: 10 },
        { block_index: 1, upper_limit: 10 },
      ],
      '1.upper_limit: Must increase strictly with block_index',
    ],
    [
      [
        { block_index: 1, upper_limit: 5 },
        { block_index: 0, upper_limit: 10 },
      ],
      '0.upper_limit: Must increase strictly with block_index',
    ],
    [
      [{ block_index: 0 }, { block_index: 1, upper_limit: 10 }],
      '0.upper_limit: Only the last tier may have no upper_limit',
    ],
    [[{ block_index: -1 }], '0.block_index: Too small: expected number to be >=0'],
    [[{ block_index: 0, upper_limit: -0.000001 }], '0.upper_limit: Too small: expected number to be >=0'],
    [[{ block_index: 0, upper_limit: 1.79e308 }], '0.upper_limit: Too big: expected number to be <=1000000000'],
    [
      [{ block_index: 0, upper_limit: 1_000_000_000.000001 }],
      '0.upper_limit: Too big: expected number to be <=1000000000',
    ],
    [[{ block_index: 0, upper_limit: 12.3456789 }], '0.upper_limit: Must have at most 6 decimals'],
    [[{ block_index: 0, unit_price_cents: 12.34567 }], '0.unit_price_cents: Must have at most 4 decimals'],
    [[{ upper_limit: 10 }], '0.block_index: Invalid input: expected number, received undefined'],
    [{ block_index: 0 }, 'body: Invalid input: expected array, received object'],
  ])('rejects %j with 400 and keeps the blocks', async (body, error) => {
    const r = await setup();
    const before = (await r.owner.client.get(r.url)).body.data;
    const res = await r.owner.client.post(r.url, body);
    expect([res.status, res.body]).toEqual([400, invalid(error)]);
    expect((await r.owner.client.get(r.url)).body.data).toEqual(before);
  });
});

describe('upper_limit bounds', () => {
  it('takes 0 to 1,000,000,000 with up to 6 decimals and reads the limits back exactly', async () => {
    const r = await setup();
    const tiers = [
      { block_index: 0, upper_limit: 0, unit_price_cents: 1 },
      { block_index: 1, upper_limit: 0.000001, unit_price_cents: 2 },
      { block_index: 2, upper_limit: 999_999_999.999999, unit_price_cents: 3 },
      { block_index: 3, upper_limit: 1_000_000_000, unit_price_cents: 4 },
      { block_index: 4, upper_limit: null, unit_price_cents: 5 },
    ];
    const res = await r.owner.client.post(r.url, tiers);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const limits = tiers.map((tier) => tier.upper_limit);
    expect(res.body.data.map((b: { upper_limit: number | null }) => b.upper_limit)).toEqual(limits);
    expect(
      (await r.member.client.get(r.url)).body.data.map((b: { upper_limit: number | null }) => b.upper_limit),
    ).toEqual(limits);
  });

  it('refuses a change of one tier to a limit beyond 1,000,000,000', async () => {
    const r = await setup();
    const res = await r.owner.client.post(r.url, [{ block_index: 0, upper_limit: null, unit_price_cents: 1 }]);
    const changed = await r.owner.client.put(`${r.url}/${res.body.data[0].id}`, { upper_limit: 1e308 });
    expect([changed.status, changed.body]).toEqual([
      400,
      invalid('upper_limit: Too big: expected number to be <=1000000000'),
    ]);
  });
});

describe('decimal cents', () => {
  it('takes unit_price_cents with up to 4 decimals and reads them back as given; whole cents stay whole', async () => {
    const r = await setup();
    const res = await r.owner.client.post(r.url, [
      { block_index: 0, upper_limit: 600, unit_price_cents: 232.31 },
      { block_index: 1, upper_limit: 900, unit_price_cents: 394.8655 },
      { block_index: 2, upper_limit: null, unit_price_cents: 400 },
    ]);
    const tiers = [
      { id: expect.any(Number), tariff_item_id: r.item.id, block_index: 0, upper_limit: 600, unit_price_cents: 232.31 },
      {
        id: expect.any(Number),
        tariff_item_id: r.item.id,
        block_index: 1,
        upper_limit: 900,
        unit_price_cents: 394.8655,
      },
      { id: expect.any(Number), tariff_item_id: r.item.id, block_index: 2, upper_limit: null, unit_price_cents: 400 },
    ];
    expect([res.status, res.body]).toEqual([201, { success: true, message: null, data: tiers }]);
    expect((await r.member.client.get(r.url)).body.data).toEqual(res.body.data);
    const items = await r.member.client.get(`/api/v1/tariffs/${r.tariff.id}/items`);
    const item = items.body.data.find((i: { id: number }) => i.id === r.item.id);
    expect(item.tariff_blocks).toEqual(res.body.data);

    const changed = await r.owner.client.put(`${r.url}/${res.body.data[2].id}`, { unit_price_cents: 0.0001 });
    expect([changed.status, changed.body.data.unit_price_cents]).toEqual([200, 0.0001]);
  });

  it('creates an item with decimal-cent tiers in one request', async () => {
    const r = await setup();
    const [item] = await createItems(r.owner.client, r.tariff.id, {
      item_type_code: 'EXPORTED_ENERGY',
      price: 0,
      blocks: [
        { block_index: 0, upper_limit: 350, unit_price_cents: 190.28 },
        { block_index: 1, upper_limit: null, unit_price_cents: 215.62 },
      ],
    });
    expect(item.tariff_blocks.map((b: { unit_price_cents: number }) => b.unit_price_cents)).toEqual([190.28, 215.62]);
  });

  it('answers 400 naming the field for 5 decimals, on replace and update; nothing changes', async () => {
    const r = await setup();
    const before = (await r.owner.client.get(r.url)).body.data;
    const replaced = await r.owner.client.post(r.url, [
      { block_index: 0, upper_limit: null, unit_price_cents: 232.31251 },
    ]);
    expect([replaced.status, replaced.body]).toEqual([
      400,
      invalid('0.unit_price_cents: Must have at most 4 decimals'),
    ]);
    const updated = await r.owner.client.put(`${r.url}/${r.blocks[0]!.id}`, { unit_price_cents: 0.00001 });
    expect([updated.status, updated.body]).toEqual([400, invalid('unit_price_cents: Must have at most 4 decimals')]);
    expect((await r.owner.client.get(r.url)).body.data).toEqual(before);
  });
});

describe('update', () => {
  it('changes block_index, upper_limit and unit_price_cents', async () => {
    const r = await setup();
    const last = r.blocks[2]!;
    const res = await r.admin.client.put(`${r.url}/${last.id}`, {
      block_index: 5,
      unit_price_cents: 300,
      account_id: r.accountId,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: { id: last.id, tariff_item_id: r.item.id, block_index: 5, upper_limit: null, unit_price_cents: 300 },
    });
    const bounded = await r.owner.client.put(`${r.url}/${last.id}`, { upper_limit: 800.25 });
    expect(bounded.body.data).toMatchObject({ block_index: 5, upper_limit: 800.25, unit_price_cents: 300 });
  });

  it('answers 409 for a block_index already used, 400 when the resulting tiers are inconsistent; nothing changes', async () => {
    const r = await setup();
    const before = (await r.owner.client.get(r.url)).body.data;
    const [first, middle] = [r.blocks[0]!, r.blocks[1]!];
    const duplicate = await r.owner.client.put(`${r.url}/${first.id}`, { block_index: 1 });
    expect([duplicate.status, duplicate.body]).toEqual([
      409,
      conflict('The item already has a block with block_index 1'),
    ]);
    const notIncreasing = await r.owner.client.put(`${r.url}/${middle.id}`, { upper_limit: 300 });
    expect([notIncreasing.status, notIncreasing.body]).toEqual([
      400,
      invalid('upper_limit: Must increase strictly with block_index'),
    ]);
    const unboundedMiddle = await r.owner.client.put(`${r.url}/${middle.id}`, { upper_limit: null });
    expect([unboundedMiddle.status, unboundedMiddle.body]).toEqual([
      400,
      invalid('upper_limit: Only the last tier may have no upper_limit'),
    ]);
    const moved = await r.owner.client.put(`${r.url}/${first.id}`, { block_index: 3 });
    expect(moved.status).toBe(400);
    const badType = await r.owner.client.put(`${r.url}/${first.id}`, { unit_price_cents: 'ten' });
    expect([badType.status, badType.body]).toEqual([
      400,
      invalid('unit_price_cents: Invalid input: expected number, received string'),
    ]);
    expect((await r.owner.client.get(r.url)).body.data).toEqual(before);
  });

  it('answers 404 for an unknown block or a block of another item', async () => {
    const r = await setup();
    const [otherItem] = await createItems(r.owner.client, r.tariff.id, {
      item_type_code: 'LEGACY',
      price: 1,
      blocks: [{ block_index: 0, upper_limit: null }],
    });
    const foreignBlock = otherItem.tariff_blocks[0].id;
    for (const res of [
      await r.owner.client.put(`${r.url}/${foreignBlock}`, { unit_price_cents: 1 }),
      await r.owner.client.put(`${r.url}/999999`, { unit_price_cents: 1 }),
      await r.owner.client.delete(`${r.url}/${foreignBlock}`),
      await r.owner.client.delete(`${r.url}/999999`),
    ]) {
      expect([res.status, res.body]).toEqual([404, BLOCK_NOT_FOUND]);
    }
    expect((await r.owner.client.get(blocksOf(r.tariff.id, otherItem.id))).body.data).toEqual(otherItem.tariff_blocks);
  });
});

describe('delete', () => {
  it('deletes one block (204)', async () => {
    const r = await setup();
    const res = await r.admin.client.delete(`${r.url}/${r.blocks[2]!.id}`, { account_id: r.accountId });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const left = await r.owner.client.get(r.url);
    expect(left.body.data.map((b: { block_index: number }) => b.block_index)).toEqual([0, 1]);
  });
});

describe('access to writes', () => {
  it('answers 403 to MEMBER, non-members and for another organization; nothing changes', async () => {
    const r = await setup();
    const before = (await r.owner.client.get(r.url)).body.data;
    const block = `${r.url}/${r.blocks[0]!.id}`;
    const attempts: [Promise<{ status: number; body: unknown }>, unknown][] = [
      [r.member.client.post(r.url, []), FORBIDDEN_ROLE],
      [r.member.client.put(block, { unit_price_cents: 1 }), FORBIDDEN_ROLE],
      [r.member.client.delete(block), FORBIDDEN_ROLE],
      [r.outsider.client.post(r.url, []), FORBIDDEN_NOT_MEMBER],
      [r.outsider.client.put(block, { unit_price_cents: 1 }), FORBIDDEN_NOT_MEMBER],
      [r.outsider.client.put(block, { unit_price_cents: 1, account_id: r.otherAccountId }), FORBIDDEN_FOREIGN],
      [r.outsider.client.delete(block, { account_id: r.otherAccountId }), FORBIDDEN_FOREIGN],
    ];
    for (const [attempt, body] of attempts) {
      const res = await attempt;
      expect([res.status, res.body]).toEqual([403, body]);
    }
    expect((await r.owner.client.get(r.url)).body.data).toEqual(before);
  });

  it('refuses every block write on a catalogue tariff with 400 Catalogue is read-only', async () => {
    const r = await setup();
    const before = (await r.owner.client.get('/api/v1/tariffs/catalogue/1')).body.data;
    const catalogueBlocks = blocksOf(1, 101);
    const attempts = [
      r.owner.client.post(catalogueBlocks, []),
      r.outsider.client.post(catalogueBlocks, [{ block_index: 0, upper_limit: null, unit_price_cents: 1 }]),
      r.owner.client.put(`${catalogueBlocks}/1011`, { unit_price_cents: 1 }),
      r.owner.client.put(`${catalogueBlocks}/1011`, { unit_price_cents: 1, account_id: CATALOGUE_ACCOUNT_ID }),
      r.member.client.delete(`${catalogueBlocks}/1011`),
      r.owner.client.delete(`${catalogueBlocks}/1012`, { account_id: r.accountId }),
    ];
    for (const attempt of attempts) {
      const res = await attempt;
      expect([res.status, res.body]).toEqual([400, READ_ONLY]);
    }
    expect((await r.owner.client.get('/api/v1/tariffs/catalogue/1')).body.data).toEqual(before);
  });
});
