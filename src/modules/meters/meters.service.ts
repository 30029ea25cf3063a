import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Database, Executor } from '../../db/types.ts';
import { type Access, type AccessGuard, assertOwned } from '../../http/access-guard.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { conflictOnDuplicate } from '../../http/database-conflicts.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { assertReferencesExist, type Reference } from '../../http/references.ts';
import type { BuildingBlocksService } from '../building-blocks/building-blocks.service.ts';
import {
  requestChange,
  type TariffChangeCause,
  type TariffHistoryRecorder,
} from '../tariff-history/tariff-history.model.ts';
import type { TariffAccess } from '../tariffs/tariff-access.ts';
import { type Meter, metersRepository as repo } from './meters.repository.ts';
import type { BlockMetersQuery, CreateMeter, ListMetersQuery, UpdateMeter } from './meters.schemas.ts';

export interface MetersDeps {
  db: Database;
  /** Reads look meters up by serial from the read cache: a change of a meter drops its entries. */
  cache: Pick<ReadCache, 'invalidate'>;
  guard: AccessGuard;
  blocks: Pick<BuildingBlocksService, 'find' | 'lockReferenced'>;
  tariffs: Pick<TariffAccess, 'lockLive'>;
  history: Pick<TariffHistoryRecorder, 'recordMeters'>;
  /** The clock: a change of a meter's tariff takes effect at the instant of the request. */
  now: () => Date;
}

const SERIAL_TAKEN = 'A meter with this meter_sn already exists';

export function createMetersService({ db, cache, guard, blocks, tariffs, history, now }: MetersDeps) {
  /** Within the write's transaction, after it: a tariff the request set or changed goes into the meter's history. */
  async function recordTariff(
    tx: Executor,
    meter: Meter,
    values: { tariff_id?: number | null },
    cause: TariffChangeCause,
  ) {
    if (values.tariff_id === undefined) return;
    await history.recordMeters(tx, meter.account_id, [meter.id], requestChange(now(), cause));
  }

  /** The block and tariff a meter names must be records of its organization (400 otherwise). */
  function assertMeterReferences(
    tx: Executor,
    accountId: string,
    values: { building_block_id?: number; tariff_id?: number | null },
  ) {
    const references: Reference<'Building block' | 'Tariff'>[] = [];
    if (values.building_block_id !== undefined) {
      references.push({ kind: 'Building block', path: ['building_block_id'], id: values.building_block_id });
    }
    if (values.tariff_id != null) references.push({ kind: 'Tariff', path: ['tariff_id'], id: values.tariff_id });
    return assertReferencesExist(tx, accountId, references, {
      'Building block': blocks.lockReferenced,
      Tariff: tariffs.lockLive,
    });
  }

  async function owned(auth: AuthContext, accountId: string, id: number, access: Access) {
    await guard.require(auth, accountId, access);
    return assertOwned(await repo.find(db, id), accountId, 'Meter');
  }

  return {
    /** For a record naming meters: which of ids are meters of the organization, locked until the transaction ends. */
    lockReferenced: repo.lockExisting,

    async list(auth: AuthContext, query: ListMetersQuery) {
      const { account_id: accountId, building_block_id, meter_type, ...list } = query;
      await guard.require(auth, accountId, 'read');
      return repo.list(db, accountId, { building_block_id, meter_type }, list);
    },

    async listOfBlock(auth: AuthContext, blockId: number, query: BlockMetersQuery) {
      const { account_id: accountId, meter_type, ...list } = query;
      await guard.require(auth, accountId, 'read');
      assertOwned(await blocks.find(blockId), accountId, 'Building block');
      return repo.list(db, accountId, { building_block_id: blockId, meter_type }, list);
    },

    async create(auth: AuthContext, body: CreateMeter) {
      const { account_id: accountId, ...values } = body;
      await guard.require(auth, accountId, 'write');
      return guard.transaction(auth, accountId, 'write', async (tx) => {
        await assertMeterReferences(tx, accountId, values);
        const meter = await conflictOnDuplicate(repo.insert(tx, accountId, values), SERIAL_TAKEN, 'METER_SN_TAKEN');
        await recordTariff(tx, meter, body, 'CREATE');
        return meter;
      });
    },

    get: (auth: AuthContext, accountId: string, id: number) => owned(auth, accountId, id, 'read'),

    async update(auth: AuthContext, id: number, body: UpdateMeter): Promise<Meter> {
      const { account_id: accountId, ...values } = body;
      await owned(auth, accountId, id, 'write');
      return guard.transaction(auth, accountId, 'write', async (tx) => {
        // The block and tariff named are locked first, then the meter: the order of every other
        // write that takes both (a transition locks its tariffs, then updates their meters).
        await assertMeterReferences(tx, accountId, values);
        const current = await repo.lock(tx, accountId, id);
        if (!current) throw notFound('Meter');
        const updated = await conflictOnDuplicate(
          repo.update(tx, accountId, id, values),
          SERIAL_TAKEN,
          'METER_SN_TAKEN',
        );
        if (!updated) throw notFound('Meter');
        await cache.invalidate(
          tx,
          cacheKeys.meterBySerial(current.meter_sn),
          cacheKeys.meterBySerial(updated.meter_sn),
          cacheKeys.buildingFacts(accountId),
        );
        await recordTariff(tx, updated, body, 'UPDATE');
        return updated;
      });
    },

    /** Readings make a meter worth keeping: deleting them too takes force. Configs naming it forget it. */
    async remove(auth: AuthContext, accountId: string, id: number, force: boolean) {
      await owned(auth, accountId, id, 'write');
      await guard.transaction(auth, accountId, 'write', async (tx) => {
        const current = await repo.lock(tx, accountId, id);
        if (!current) throw notFound('Meter');
        if (!force && (await repo.hasReadings(tx, id))) {
          throw conflict('The meter has readings; delete it with force=true to delete them too', 'METER_HAS_READINGS');
        }
        await cache.invalidate(tx, cacheKeys.meterBySerial(current.meter_sn), cacheKeys.buildingFacts(accountId));
        await repo.delete(tx, accountId, id);
      });
    },
  };
}

export type MetersService = ReturnType<typeof createMetersService>;
