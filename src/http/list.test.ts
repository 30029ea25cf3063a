import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock } from '../../test/helpers/building-factories.ts';
import { invalidQuery } from '../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
  for (const name of ['Beta', 'Alpha', 'Gamma']) await createBlock(r.owner.client, r.accountId, { name });
});
afterAll(async () => t.close());

const names = (body: { data: { name: string }[] }) => body.data.map((b) => b.name);

describe('list sorting', () => {
  it('accepts sort_by and sort_order as other spellings of sortBy and sortOrder', async () => {
    const contract = await r.member.client.get('/api/v1/building_blocks', {
      account_id: r.accountId,
      sortBy: 'name',
      sortOrder: 'asc',
    });
    const snake = await r.member.client.get('/api/v1/building_blocks', {
      account_id: r.accountId,
      sort_by: 'name',
      sort_order: 'asc',
    });
    expect(names(contract.body)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(snake.status).toBe(200);
    expect(snake.body).toEqual(contract.body);
  });

  it('accepts both spellings when they agree, and answers 400 when they differ', async () => {
    const same = await r.member.client.get('/api/v1/building_blocks', {
      account_id: r.accountId,
      sortBy: 'name',
      sort_by: 'name',
      sortOrder: 'desc',
      sort_order: 'desc',
    });
    expect(names(same.body)).toEqual(['Gamma', 'Beta', 'Alpha']);
    const differ = await r.member.client.get('/api/v1/building_blocks', {
      account_id: r.accountId,
      sortBy: 'name',
      sort_by: 'city',
    });
    expect(differ.status).toBe(400);
    expect(differ.body).toEqual(invalidQuery('sort_by: Must equal sortBy when both are given'));
  });

  it('names the parameter as the client spelled it when its value is invalid', async () => {
    const res = await r.member.client.get('/api/v1/building_blocks', {
      account_id: r.accountId,
      sort_order: 'sideways',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^sort_order: /);
  });
});
