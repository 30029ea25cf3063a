import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, registerUser, type TestUser } from '../../test/helpers/factories.ts';
import type { clientFor } from '../../test/helpers/http.ts';
import { secondProcess } from '../../test/helpers/second-process.ts';
import { createItems, createTariff } from '../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { createReadCache } from './read-cache.ts';

let t: TestApp;
let owner: TestUser;
let accountId: string;
beforeAll(async () => {
  t = await startTestApp();
  owner = await registerUser(t.app);
  accountId = await createOrganization(owner);
});
afterAll(async () => t.close());

async function price(client: ReturnType<typeof clientFor>, tariffId: number): Promise<number> {
  const res = await client.get(`/api/v1/tariffs/${tariffId}`, { account_id: accountId });
  return res.body.data.tariff_items[0].price;
}

describe('read cache in one process', () => {
  it('serves a read after a write with the written values at once', async () => {
    const tariff = await createTariff(owner.client, accountId);
    const [item] = await createItems(owner.client, tariff.id, { item_type_code: 'IMPORT_ENERGY', price: 1.5 });
    expect(await price(owner.client, tariff.id)).toBe(1.5);
    for (const next of [1.75, 2, 2.25]) {
      await owner.client.put(`/api/v1/tariffs/${tariff.id}/items/${item.id}`, { price: next });
      expect(await price(owner.client, tariff.id)).toBe(next);
    }
  });

  it('takes access away at once when a member is removed', async () => {
    const member = await registerUser(t.app);
    await addMember(owner, accountId, member, 'MEMBER');
    const tariff = await createTariff(owner.client, accountId);
    expect((await member.client.get(`/api/v1/tariffs/${tariff.id}`, { account_id: accountId })).status).toBe(200);
    await owner.client.delete(`/api/v1/organizations/${accountId}/members/${member.id}`);
    expect((await member.client.get(`/api/v1/tariffs/${tariff.id}`, { account_id: accountId })).status).toBe(403);
  });

  it('does not remember a tariff that did not exist yet', async () => {
    const next = (await t.db.query<{ id: number }>(`SELECT last_value + 1 AS id FROM tariffs_id_seq`))[0]!.id;
    expect((await owner.client.get(`/api/v1/tariffs/${next}`, { account_id: accountId })).status).toBe(404);
    const tariff = await createTariff(owner.client, accountId);
    expect(tariff.id).toBe(next);
    expect((await owner.client.get(`/api/v1/tariffs/${next}`, { account_id: accountId })).status).toBe(200);
  });
});

describe('versions of keys', () => {
  it('stay the same object until the key is invalidated (many keys by one statement), fresh ones until then', async () => {
    const cache = createReadCache(t.db);
    const fresh = (key: string) => {
      const first = cache.version(key);
      return cache.version(key) !== first;
    };
    expect(fresh('a')).toBe(true); // not listening yet
    await cache.start();
    try {
      const [a, b] = [cache.version('a'), cache.version('b')];
      expect(cache.version('a')).toBe(a);
      expect(cache.version('b')).toBe(b);
      await t.db.transaction(async (tx) => {
        await cache.invalidate(tx, 'a', 'b');
        // Written, not committed: nothing can be kept by a or b.
        expect([fresh('a'), fresh('b')]).toEqual([true, true]);
      });
      // Until the notice of the commit arrives.
      for (let i = 0; i < 100 && (fresh('a') || fresh('b')); i++) await new Promise((r) => setTimeout(r, 20));
      expect([fresh('a'), fresh('b')]).toEqual([false, false]);
      expect(cache.version('a')).not.toBe(a);
      expect(cache.version('b')).not.toBe(b);
      const c = cache.version('c');
      await t.db.query(`SELECT pg_notify('ums_cache', 'c')`);
      for (let i = 0; i < 100 && cache.version('c') === c; i++) await new Promise((r) => setTimeout(r, 20));
      expect(cache.version('c')).not.toBe(c);
    } finally {
      await cache.stop();
    }
  });
});

describe('read cache across processes on one PostgreSQL', () => {
  let other: Awaited<ReturnType<typeof secondProcess>> | undefined;
  afterAll(async () => other?.close());

  it.runIf(process.env.DATABASE_URL)('drops what another process changed, as soon as it commits', async () => {
    other = await secondProcess(t.databaseUrl!, owner);
    const elsewhere = other.client;

    const tariff = await createTariff(owner.client, accountId);
    const [item] = await createItems(owner.client, tariff.id, { item_type_code: 'IMPORT_ENERGY', price: 1 });
    expect(await price(owner.client, tariff.id)).toBe(1);
    await elsewhere.put(`/api/v1/tariffs/${tariff.id}/items/${item.id}`, { price: 3 });
    let seen = 1;
    for (let i = 0; i < 40 && seen !== 3; i++) {
      seen = await price(owner.client, tariff.id);
      if (seen !== 3) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(seen).toBe(3);

    const member = await registerUser(t.app);
    await addMember(owner, accountId, member, 'MEMBER');
    expect((await member.client.get(`/api/v1/tariffs/${tariff.id}`, { account_id: accountId })).status).toBe(200);
    await elsewhere.delete(`/api/v1/organizations/${accountId}/members/${member.id}`);
    let status = 200;
    for (let i = 0; i < 40 && status !== 403; i++) {
      status = (await member.client.get(`/api/v1/tariffs/${tariff.id}`, { account_id: accountId })).status;
      if (status !== 403) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe(403);
  });
});
