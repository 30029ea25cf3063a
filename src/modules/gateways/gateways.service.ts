import type { ListParams } from '../../db/list-page.ts';
import type { Database, Executor } from '../../db/types.ts';
import { type Access, type AccessGuard, assertOwned } from '../../http/access-guard.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { notFound } from '../../http/errors.ts';
import { assertReferencesExist } from '../../http/references.ts';
import type { MetersService } from '../meters/meters.service.ts';
import { hashGatewayKey, newGatewayKey } from './gateway-key.ts';
import { type Gateway, gatewaysRepository as repo } from './gateways.repository.ts';
import type { CreateGateway, UpdateGateway } from './gateways.schemas.ts';

export interface GatewaysDeps {
  db: Database;
  guard: AccessGuard;
  meters: Pick<MetersService, 'lockReferenced'>;
}

/** A gateway with the key that opens it: only in the answer that made the key. */
export type GatewayWithKey = Gateway & { key: string };

export function createGatewaysService({ db, guard, meters }: GatewaysDeps) {
  /** The meters named must be the organization's (400 naming meter_ids), locked until the write ends. */
  function assertMeters(tx: Executor, accountId: string, meterIds: readonly number[] | undefined) {
    const references = (meterIds ?? []).map((id, index) => ({
      kind: 'Meter' as const,
      path: ['meter_ids', index],
      id,
    }));
    return assertReferencesExist(tx, accountId, references, { Meter: meters.lockReferenced });
  }

  async function owned(auth: AuthContext, accountId: string, id: number, access: Access) {
    await guard.require(auth, accountId, access);
    return assertOwned(await repo.find(db, id), accountId, 'Gateway');
  }

  /** Within a write: the organization's gateway locked until it ends (404 when a racing delete removed it). */
  async function locked(tx: Executor, accountId: string, id: number) {
    if (!(await repo.lock(tx, accountId, id))) throw notFound('Gateway');
  }

  async function withNewKey(tx: Executor, id: number, key: string): Promise<GatewayWithKey> {
    return { ...(await repo.find(tx, id))!, key };
  }

  return {
    async list(auth: AuthContext, accountId: string, list: ListParams) {
      await guard.require(auth, accountId, 'read');
      return repo.list(db, accountId, list);
    },

    get: (auth: AuthContext, accountId: string, id: number) => owned(auth, accountId, id, 'read'),

    async create(auth: AuthContext, body: CreateGateway): Promise<GatewayWithKey> {
      const { account_id: accountId, meter_ids: meterIds, ...values } = body;
      await guard.require(auth, accountId, 'write');
      const key = newGatewayKey();
      return guard.transaction(auth, accountId, 'write', async (tx) => {
        await assertMeters(tx, accountId, meterIds);
        const id = await repo.insert(tx, accountId, { ...values, key_hash: hashGatewayKey(key) });
        await repo.setMeters(tx, accountId, id, meterIds);
        return withNewKey(tx, id, key);
      });
    },

    async update(auth: AuthContext, id: number, body: UpdateGateway): Promise<Gateway> {
      const { account_id: accountId, meter_ids: meterIds, ...values } = body;
      await owned(auth, accountId, id, 'write');
      return guard.transaction(auth, accountId, 'write', async (tx) => {
        // The meters named are locked first (FOR SHARE), then the gateway. A push locks the gateway
        // first, then its readings take KEY SHARE of the meter, which FOR SHARE does not block.
        await assertMeters(tx, accountId, meterIds);
        await locked(tx, accountId, id);
        await repo.update(tx, accountId, id, values);
        if (meterIds) await repo.setMeters(tx, accountId, id, meterIds);
        return (await repo.find(tx, id))!;
      });
    },

    /** A new key; the old one opens nothing from the moment this commits, in every process. */
    async rotateKey(auth: AuthContext, accountId: string, id: number): Promise<GatewayWithKey> {
      await owned(auth, accountId, id, 'write');
      const key = newGatewayKey();
      return guard.transaction(auth, accountId, 'write', async (tx) => {
        await locked(tx, accountId, id);
        await repo.update(tx, accountId, id, { key_hash: hashGatewayKey(key) });
        return withNewKey(tx, id, key);
      });
    },

    async remove(auth: AuthContext, accountId: string, id: number) {
      await owned(auth, accountId, id, 'write');
      await guard.transaction(auth, accountId, 'write', async (tx) => {
        await locked(tx, accountId, id);
        await repo.delete(tx, accountId, id);
      });
    },
  };
}

export type GatewaysService = ReturnType<typeof createGatewaysService>;
