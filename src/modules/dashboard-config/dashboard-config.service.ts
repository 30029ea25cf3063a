import { METER_FIELDS, TARIFF_FIELDS } from '../../db/energy-sources.ts';
import { type CacheInvalidation, cacheKeys } from '../../db/read-cache.ts';
import type { Database } from '../../db/types.ts';
import { type AccessGuard, assertOwned } from '../../http/access-guard.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { notFound } from '../../http/errors.ts';
import { assertReferencesExist, type Reference } from '../../http/references.ts';
import type { BuildingBlocksService } from '../building-blocks/building-blocks.service.ts';
import type { MetersService } from '../meters/meters.service.ts';
import { requestChange, type TariffHistoryRecorder } from '../tariff-history/tariff-history.model.ts';
import type { TariffAccess } from '../tariffs/tariffs.model.ts';
import { dashboardConfigRepository as repo } from './dashboard-config.repository.ts';
import type { ConfigValues, UpsertConfig } from './dashboard-config.schemas.ts';

export interface DashboardConfigDeps {
  db: Database;
  guard: AccessGuard;
  blocks: Pick<BuildingBlocksService, 'find'>;
  meters: Pick<MetersService, 'lockReferenced'>;
  tariffs: Pick<TariffAccess, 'lockLive'>;
  history: Pick<TariffHistoryRecorder, 'recordConfigs'>;
  /** A config names what a building's cost prices: its writes name the organization's building facts. */
  cache: CacheInvalidation;
  /** The clock: a change of a source's tariff takes effect at the instant of the request. */
  now: () => Date;
}

/** Every meter and tariff the given fields name (null clears a field and names nothing). */
function referencesOf(values: ConfigValues): Reference<'Meter' | 'Tariff'>[] {
  const references: Reference<'Meter' | 'Tariff'>[] = [];
  for (const field of METER_FIELDS) {
    const id = values[field];
    if (id != null) references.push({ kind: 'Meter', path: [field], id });
  }
  values.submeter_ids?.forEach((id, index) => {
    references.push({ kind: 'Meter', path: ['submeter_ids', index], id });
  });
  for (const field of TARIFF_FIELDS) {
    const id = values[field];
    if (id != null) references.push({ kind: 'Tariff', path: [field], id });
  }
  return references;
}

export function createDashboardConfigService({
  db,
  guard,
  blocks,
  meters,
  tariffs,
  history,
  cache,
  now,
}: DashboardConfigDeps) {
  async function ownedBlock(auth: AuthContext, accountId: string, blockId: number, access: 'read' | 'write') {
    await guard.require(auth, accountId, access);
    assertOwned(await blocks.find(blockId), accountId, 'Building block');
  }

  return {
    async get(auth: AuthContext, accountId: string, blockId: number) {
      await ownedBlock(auth, accountId, blockId, 'read');
      const config = await repo.find(db, accountId, blockId);
      if (!config) throw notFound('Dashboard config');
      return config;
    },

    async upsert(auth: AuthContext, blockId: number, body: UpsertConfig) {
      const { account_id: accountId, ...values } = body;
      await guard.require(auth, accountId, 'write');
      // The contract answers 404, not 403, for a block outside account_id on this one operation (spec Errors rule 9).
      const block = await blocks.find(blockId);
      if (block?.account_id !== accountId) throw notFound('Building block');
      return guard.transaction(auth, accountId, 'write', async (tx) => {
        await assertReferencesExist(tx, accountId, referencesOf(values), {
          Meter: meters.lockReferenced,
          Tariff: tariffs.lockLive,
        });
        const config = await repo.upsert(tx, accountId, blockId, values);
        await cache.invalidate(tx, cacheKeys.buildingFacts(accountId));
        if (TARIFF_FIELDS.some((field) => values[field] !== undefined)) {
          await history.recordConfigs(tx, accountId, [blockId], requestChange(now(), 'UPDATE'));
        }
        return config;
      });
    },

    /** The block's source history stays: its sources have no tariff from now on. */
    async remove(auth: AuthContext, accountId: string, blockId: number) {
      await ownedBlock(auth, accountId, blockId, 'write');
      await guard.transaction(auth, accountId, 'write', async (tx) => {
        if (!(await repo.delete(tx, accountId, blockId))) throw notFound('Dashboard config');
        await cache.invalidate(tx, cacheKeys.buildingFacts(accountId));
        await history.recordConfigs(tx, accountId, [blockId], requestChange(now(), 'DELETE'));
      });
    },
  };
}

export type DashboardConfigService = ReturnType<typeof createDashboardConfigService>;
