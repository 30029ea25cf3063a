import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockBody, createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
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
} from '../../../test/helpers/envelopes.ts';
import { createOrganization, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

const base = '/api/v1/building_blocks';
const FOREIGN_BLOCK = ownedByAnother('Building block');
const NO_BLOCK = notFound('Building block');

/** The database-error form of spec Errors rule 10, decoded. */
function databaseError(body: { success: boolean; message: unknown; error: string; code: string }) {
  expect(body.success).toBe(false);
  expect(body.message).toBeNull();
  expect(body.code).toBe('DATABASE_ERROR');
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'success']);
  return JSON.parse(body.error);
}

describe('POST /building_blocks', () => {
  it('creates a block with every field and answers 201 with the record', async () => {
    const res = await org.owner.client.post(
      base,
      blockBody(org.accountId, {
        name: '  Head Office  ',
        description: 'Main office',
        area: 1250.5,
        is_active: false,
        location: '-33.92,18.42',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: {
        id: expect.any(Number),
        account_id: org.accountId,
        name: 'Head Office',
        building_type: 'COMMERCIAL',
        description: 'Main office',
        address: '1 Main Road',
        city: 'Cape Town',
        state: 'Western Cape',
        postal_code: 8001,
        country: 'South Africa',
        parent_id: null,
        area: 1250.5,
        is_active: false,
        location: '-33.92,18.42',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        has_dashboard_config: false,
      },
    });
    const read = await org.member.client.get(`${base}/${res.body.data.id}`, { account_id: org.accountId });
    expect(read.body.data).toEqual(res.body.data);
  });

  it('defaults the optional fields and accepts a parent of the same organization (ADMIN may write)', async () => {
    const parent = await createBlock(org.owner.client, org.accountId, { name: 'Site' });
    const res = await org.admin.client.post(base, blockBody(org.accountId, { name: 'Wing', parent_id: parent.id }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      parent_id: parent.id,
      description: null,
      area: null,
      is_active: true,
      location: null,
    });
  });

  it.each(['name', 'building_type', 'address', 'city', 'state', 'postal_code', 'country'])(
    'answers a missing %s with 400 in the database-error form (code 23502)',
    async (field) => {
      const body: Record<string, unknown> = blockBody(org.accountId);
      delete body[field];
      const res = await org.owner.client.post(base, body);
      expect(res.status).toBe(400);
      expect(databaseError(res.body)).toEqual({
        message: `null value in column "${field}" of relation "building_blocks" violates not-null constraint`,
        code: '23502',
      });
    },
  );

  it('treats a null required field like a missing one', async () => {
    const res = await org.owner.client.post(base, blockBody(org.accountId, { city: null }));
    expect(res.status).toBe(400);
    expect(databaseError(res.body)).toEqual({
      message: 'null value in column "city" of relation "building_blocks" violates not-null constraint',
      code: '23502',
    });
  });

  it('answers an unknown parent, or one of another organization, in the database-error form (code 23503)', async () => {
    const foreign = await createBlock(org.outsider.client, org.otherAccountId);
    for (const parentId of [foreign.id, 2_000_000_000]) {
      const res = await org.owner.client.post(base, blockBody(org.accountId, { parent_id: parentId }));
      expect(res.status).toBe(400);
      expect(databaseError(res.body)).toEqual({
        message:
          'insert or update on table "building_blocks" violates foreign key constraint "building_blocks_parent_id_account_id_fkey"',
        code: '23503',
      });
    }
  });

  it.each([
    [{ account_id: 'not-a-uuid' }, 'account_id: Invalid UUID'],
    [
      { building_type: 'CASTLE' },
      expect.stringMatching(/^building_type: Invalid option: expected one of "RESIDENTIAL"/),
    ],
    [{ postal_code: '8001' }, 'postal_code: Invalid input: expected number, received string'],
    [{ name: 42 }, 'name: Invalid input: expected string, received number'],
    [{ name: '   ' }, 'name: Too small: expected string to have >=1 characters'],
    [{ name: 'a\u0000b' }, 'name: Must not contain the NUL character'],
    [{ parent_id: 'x' }, 'parent_id: Invalid input: expected number, received string'],
    [{ area: -1 }, 'area: Too small: expected number to be >=0'],
    [{ is_active: 'yes' }, 'is_active: Invalid input: expected boolean, received string'],
  ])('answers other invalid input %j with 400 Invalid request body', async (override, error) => {
    const res = await org.owner.client.post(base, blockBody(org.accountId, override));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(error));
  });

  it('checks access before the database sees the row: 403 for a MEMBER or an outsider, even with a field missing', async () => {
    const incomplete = { account_id: org.accountId, name: 'No address' };
    expect(await org.member.client.post(base, blockBody(org.accountId))).toMatchObject({
      status: 403,
      body: FORBIDDEN_ROLE,
    });
    expect(await org.member.client.post(base, incomplete)).toMatchObject({ status: 403, body: FORBIDDEN_ROLE });
    expect(await org.outsider.client.post(base, incomplete)).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
  });

  it('answers 401 without a token, before validation', async () => {
    const res = await call(t.app, 'POST', base, { body: {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(AUTH_REQUIRED);
  });
});

describe('GET /building_blocks', () => {
  let accountId: string;
  const names = ['Alpha Tower', 'Bravo Depot', 'Charlie Flats', 'Delta Mill', 'Echo Hall'];
  let blocks: { id: number; name: string }[];

  beforeAll(async () => {
    accountId = await createOrganization(org.owner, 'List Org');
    blocks = [];
    const site = await createBlock(org.owner.client, accountId, { name: names[0], building_type: 'MIXED_USE' });
    blocks.push(site);
    blocks.push(
      await createBlock(org.owner.client, accountId, {
        name: names[1],
        building_type: 'INDUSTRIAL',
        parent_id: site.id,
      }),
    );
    blocks.push(
      await createBlock(org.owner.client, accountId, {
        name: names[2],
        building_type: 'RESIDENTIAL',
        parent_id: site.id,
        description: 'Student HOUSING',
      }),
    );
    blocks.push(await createBlock(org.owner.client, accountId, { name: names[3], building_type: 'INDUSTRIAL' }));
    blocks.push(
      await createBlock(org.owner.client, accountId, {
        name: names[4],
        building_type: 'PUBLIC',
        description: '50% off',
      }),
    );
    await createBlock(org.outsider.client, org.otherAccountId, { name: 'Foxtrot Foreign' });
  });

  const list = (query: Record<string, unknown>) => org.owner.client.get(base, { account_id: accountId, ...query });
  const namesOf = (body: { data: { name: string }[] }) => body.data.map((b) => b.name);

  it('lists the organization’s blocks, newest first, with the total count', async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: null, data: expect.any(Array), count: 5 });
    expect(namesOf(res.body)).toEqual([...names].reverse());
    expect(res.body.data[0]).toEqual({
      ...blockBody(accountId, { name: 'Echo Hall', building_type: 'PUBLIC', description: '50% off' }),
      id: blocks[4]!.id,
      parent_id: null,
      area: null,
      is_active: true,
      location: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      has_dashboard_config: false,
    });
  });

  it('paginates, counting every matching row', async () => {
    const res = await list({ page: 2, limit: 2, sortBy: 'name', sortOrder: 'asc' });
    expect(res.body.count).toBe(5);
    expect(namesOf(res.body)).toEqual(['Charlie Flats', 'Delta Mill']);
    const last = await list({ page: 3, limit: 2, sortBy: 'name', sortOrder: 'asc' });
    expect(namesOf(last.body)).toEqual(['Echo Hall']);
    const beyond = await list({ page: 4, limit: 2 });
    expect(beyond.body).toEqual({ success: true, message: null, data: [], count: 5 });
  });

  it('sorts by an allowed column in either order', async () => {
    expect(namesOf((await list({ sortBy: 'name', sortOrder: 'desc' })).body)).toEqual([...names].sort().reverse());
    const byType = await list({ sortBy: 'building_type', sortOrder: 'asc' });
    expect(byType.body.data.map((b: { building_type: string }) => b.building_type)).toEqual([
      'INDUSTRIAL',
      'INDUSTRIAL',
      'MIXED_USE',
      'PUBLIC',
      'RESIDENTIAL',
    ]);
  });

  it('searches name and description case-insensitively, taking % literally', async () => {
    const byName = await list({ query: 'dElTa' });
    expect(byName.body).toMatchObject({ count: 1, data: [{ name: 'Delta Mill' }] });
    const byDescription = await list({ query: 'housing' });
    expect(byDescription.body).toMatchObject({ count: 1, data: [{ name: 'Charlie Flats' }] });
    const literal = await list({ query: '50%' });
    expect(literal.body).toMatchObject({ count: 1, data: [{ name: 'Echo Hall' }] });
  });

  it('filters by parent_id and by type (another name for building_type)', async () => {
    const children = await list({ parent_id: blocks[0]!.id, sortBy: 'name', sortOrder: 'asc' });
    expect(children.body.count).toBe(2);
    expect(namesOf(children.body)).toEqual(['Bravo Depot', 'Charlie Flats']);
    const industrial = await list({ type: 'INDUSTRIAL', sortBy: 'name', sortOrder: 'asc' });
    expect(namesOf(industrial.body)).toEqual(['Bravo Depot', 'Delta Mill']);
    const same = await list({ building_type: 'INDUSTRIAL', sortBy: 'name', sortOrder: 'asc' });
    expect(same.body).toEqual(industrial.body);
    const both = await list({ type: 'INDUSTRIAL', parent_id: blocks[0]!.id });
    expect(both.body).toMatchObject({ count: 1, data: [{ name: 'Bravo Depot' }] });
  });

  it.each([
    [{ sortBy: 'address' }, expect.stringMatching(/^sortBy: Invalid option: expected one of "created_at"/)],
    [{ sortOrder: 'up' }, 'sortOrder: Invalid option: expected one of "asc"|"desc"'],
    [{ limit: 101 }, 'limit: Too big: expected number to be <=100'],
    [{ page: 0 }, 'page: Too small: expected number to be >=1'],
    [{ type: 'CASTLE' }, expect.stringMatching(/^type: Invalid option/)],
    [{ type: 'PUBLIC', building_type: 'OTHER' }, 'type: Must equal building_type when both are given'],
    [{ parent_id: 'root' }, 'parent_id: Must be a whole number in plain decimal digits'],
    [{ account_id: 'nope' }, 'account_id: Invalid UUID'],
  ])('answers invalid list parameters %j with 400', async (query, error) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery(error));
  });

  it('lets a MEMBER list, and refuses a non-member with 403; another organization’s blocks never appear', async () => {
    const asMember = await org.member.client.get(base, { account_id: org.accountId });
    expect(asMember.status).toBe(200);
    expect(asMember.body.data.every((b: { account_id: string }) => b.account_id === org.accountId)).toBe(true);
    const asOutsider = await org.outsider.client.get(base, { account_id: accountId });
    expect(asOutsider).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
    const foreign = await list({ query: 'Foxtrot' });
    expect(foreign.body).toEqual({ success: true, message: null, data: [], count: 0 });
  });

  it('requires account_id', async () => {
    const res = await org.owner.client.get(base);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery('account_id: Invalid input: expected string, received undefined'));
  });
});

describe('GET /building_blocks/:id', () => {
  it('answers 403 for a block of another organization, 404 for an unknown one, 400 for a bad id', async () => {
    const foreign = await createBlock(org.outsider.client, org.otherAccountId);
    const read = (id: unknown, user = org.owner) => user.client.get(`${base}/${id}`, { account_id: org.accountId });
    expect(await read(foreign.id)).toMatchObject({ status: 403, body: FOREIGN_BLOCK });
    expect(await read(2_000_000_000)).toMatchObject({ status: 404, body: NO_BLOCK });
    expect(await read('abc')).toMatchObject({
      status: 400,
      body: invalidPath('id: Must be a whole number in plain decimal digits'),
    });
    const own = await createBlock(org.owner.client, org.accountId);
    expect(await read(own.id, org.outsider)).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
    const unauthenticated = await call(t.app, 'GET', `${base}/${own.id}`, { query: { account_id: org.accountId } });
    expect(unauthenticated.status).toBe(401);
  });
});

describe('has_dashboard_config', () => {
  it('says whether the block has a dashboard config, in its reads, its list and its update', async () => {
    const block = await createBlock(org.owner.client, org.accountId, { name: 'Config Hall' });
    const bare = await createBlock(org.owner.client, org.accountId, { name: 'Bare Hall' });
    expect(block.has_dashboard_config).toBe(false);
    const configPath = `${base}/${block.id}/config`;
    expect(await org.owner.client.get(configPath, { account_id: org.accountId })).toMatchObject({ status: 404 });

    const saved = await org.owner.client.put(configPath, { account_id: org.accountId });
    expect(saved.status).toBe(200);
    const read = await org.member.client.get(`${base}/${block.id}`, { account_id: org.accountId });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...block, has_dashboard_config: true });
    const listed = await org.member.client.get(base, { account_id: org.accountId, query: ' Hall' });
    expect(listed.status).toBe(200);
    const flags = (listed.body.data as { id: number; has_dashboard_config: boolean }[])
      .filter((b) => b.id === block.id || b.id === bare.id)
      .map((b) => [b.id, b.has_dashboard_config]);
    expect(Object.fromEntries(flags)).toEqual({ [block.id]: true, [bare.id]: false });
    const updated = await org.owner.client.put(`${base}/${block.id}`, { account_id: org.accountId, area: 10 });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: block.id, area: 10, has_dashboard_config: true });
  });
});

describe('PUT /building_blocks/:id', () => {
  const update = (id: number, body: Record<string, unknown>, user = org.owner) =>
    user.client.put(`${base}/${id}`, { account_id: org.accountId, ...body });

  it('changes the given fields only and answers with the updated record', async () => {
    const block = await createBlock(org.owner.client, org.accountId, { description: 'old', area: 10, location: 'x' });
    const changes = {
      name: 'Renamed',
      description: null,
      address: '2 Side Street',
      city: 'Durban',
      state: 'KwaZulu-Natal',
      postal_code: 4001,
      country: 'ZA',
      area: null,
      is_active: false,
      location: '-29.85,31.02',
    };
    const res = await update(block.id, changes);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: { ...block, ...changes, updated_at: expect.any(String) },
    });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(block.updated_at));
    const untouched = await update(block.id, {});
    expect(untouched.body.data).toMatchObject({ name: 'Renamed', building_type: 'COMMERCIAL' });
  });

  it('accepts type as another name for building_type, and refuses two different values', async () => {
    const block = await createBlock(org.owner.client, org.accountId);
    expect((await update(block.id, { type: 'INDUSTRIAL' })).body.data.building_type).toBe('INDUSTRIAL');
    expect((await update(block.id, { building_type: 'OTHER' })).body.data.building_type).toBe('OTHER');
    expect((await update(block.id, { type: 'PUBLIC', building_type: 'PUBLIC' })).body.data.building_type).toBe(
      'PUBLIC',
    );
    const conflicting = await update(block.id, { type: 'PUBLIC', building_type: 'OTHER' });
    expect(conflicting).toMatchObject({
      status: 400,
      body: invalid('type: Must equal building_type when both are given'),
    });
  });

  it('moves a block under another parent of the organization, and back to the top with null', async () => {
    const site = await createBlock(org.owner.client, org.accountId, { name: 'Site' });
    const block = await createBlock(org.owner.client, org.accountId);
    expect((await update(block.id, { parent_id: site.id })).body.data.parent_id).toBe(site.id);
    expect((await update(block.id, { parent_id: null })).body.data.parent_id).toBeNull();
  });

  it('refuses a parent that would make a cycle with 400', async () => {
    const top = await createBlock(org.owner.client, org.accountId, { name: 'Top' });
    const middle = await createBlock(org.owner.client, org.accountId, { name: 'Middle', parent_id: top.id });
    const bottom = await createBlock(org.owner.client, org.accountId, { name: 'Bottom', parent_id: middle.id });
    const cycle = invalid('parent_id: A building block cannot be its own parent or the parent of its ancestors');
    expect(await update(top.id, { parent_id: top.id })).toMatchObject({ status: 400, body: cycle });
    expect(await update(top.id, { parent_id: bottom.id })).toMatchObject({ status: 400, body: cycle });
    expect(await update(middle.id, { parent_id: bottom.id })).toMatchObject({ status: 400, body: cycle });
    expect(
      (await org.owner.client.get(`${base}/${top.id}`, { account_id: org.accountId })).body.data.parent_id,
    ).toBeNull();
  });

  it('refuses an unknown parent or one of another organization with 400', async () => {
    const block = await createBlock(org.owner.client, org.accountId);
    const foreign = await createBlock(org.outsider.client, org.otherAccountId);
    for (const parentId of [foreign.id, 2_000_000_000]) {
      const res = await update(block.id, { parent_id: parentId });
      expect(res).toMatchObject({
        status: 400,
        body: invalid(`parent_id: Building block ${parentId} not found in this organization`),
      });
    }
  });

  it.each([
    [{ name: null }, 'name: Invalid input: expected string, received null'],
    [{ postal_code: null }, 'postal_code: Invalid input: expected number, received null'],
    [{ type: 'CASTLE' }, expect.stringMatching(/^type: Invalid option/)],
    [{ account_id: undefined }, 'account_id: Invalid input: expected string, received undefined'],
  ])('answers invalid changes %j with 400', async (body, error) => {
    const block = await createBlock(org.owner.client, org.accountId);
    const res = await update(block.id, body);
    expect(res).toMatchObject({ status: 400, body: invalid(error) });
  });

  it('refuses a MEMBER, and never changes a block of another organization', async () => {
    const block = await createBlock(org.owner.client, org.accountId, { name: 'Kept' });
    expect(await update(block.id, { name: 'Nope' }, org.member)).toMatchObject({ status: 403, body: FORBIDDEN_ROLE });
    const foreign = await createBlock(org.outsider.client, org.otherAccountId, { name: 'Theirs' });
    expect(await update(foreign.id, { name: 'Mine' })).toMatchObject({ status: 403, body: FOREIGN_BLOCK });
    const theirs = await org.outsider.client.get(`${base}/${foreign.id}`, { account_id: org.otherAccountId });
    expect(theirs.body.data).toEqual(foreign);
    expect((await org.owner.client.get(`${base}/${block.id}`, { account_id: org.accountId })).body.data).toEqual(block);
    expect(await update(2_000_000_000, { name: 'Ghost' })).toMatchObject({ status: 404, body: NO_BLOCK });
  });
});

describe('DELETE /building_blocks/:id', () => {
  const remove = (id: number, user = org.owner) => user.client.delete(`${base}/${id}`, { account_id: org.accountId });

  it('deletes a block without children or meters: 204, then 404', async () => {
    const block = await createBlock(org.owner.client, org.accountId);
    const res = await remove(block.id, org.admin);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await org.owner.client.get(`${base}/${block.id}`, { account_id: org.accountId })).toMatchObject({
      status: 404,
      body: NO_BLOCK,
    });
    expect(await remove(block.id)).toMatchObject({ status: 404, body: NO_BLOCK });
  });

  it('answers 409 while the block has child blocks or meters', async () => {
    const parent = await createBlock(org.owner.client, org.accountId);
    const child = await createBlock(org.owner.client, org.accountId, { parent_id: parent.id });
    const hasChildren = conflict('The building block has child blocks or meters');
    expect(await remove(parent.id)).toMatchObject({ status: 409, body: hasChildren });
    await createMeter(org.owner.client, org.accountId, child.id);
    expect(await remove(child.id)).toMatchObject({ status: 409, body: hasChildren });
    const stillThere = await org.owner.client.get(`${base}/${parent.id}`, { account_id: org.accountId });
    expect(stillThere.status).toBe(200);
  });

  it('refuses a MEMBER and a block of another organization with 403, deleting nothing', async () => {
    const block = await createBlock(org.owner.client, org.accountId);
    expect(await remove(block.id, org.member)).toMatchObject({ status: 403, body: FORBIDDEN_ROLE });
    const foreign = await createBlock(org.outsider.client, org.otherAccountId);
    expect(await remove(foreign.id)).toMatchObject({ status: 403, body: FOREIGN_BLOCK });
    const theirs = await org.outsider.client.get(`${base}/${foreign.id}`, { account_id: org.otherAccountId });
    expect(theirs.status).toBe(200);
    expect((await org.owner.client.get(`${base}/${block.id}`, { account_id: org.accountId })).status).toBe(200);
  });
});
