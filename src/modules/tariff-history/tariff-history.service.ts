import type { Database } from '../../db/types.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import type { DashboardConfigService } from '../dashboard-config/dashboard-config.service.ts';
import type { MetersService } from '../meters/meters.service.ts';
import { tariffHistoryRepository as repo } from './tariff-history.repository.ts';

export interface TariffHistoryDeps {
  db: Database;
  meters: Pick<MetersService, 'get'>;
  configs: Pick<DashboardConfigService, 'get'>;
}

/** Reads of the tariff history, after the same checks as reading the meter or the config itself. */
export function createTariffHistoryService({ db, meters, configs }: TariffHistoryDeps) {
  return {
    async ofMeter(auth: AuthContext, accountId: string, meterId: number) {
      await meters.get(auth, accountId, meterId);
      return repo.ofMeter(db, accountId, meterId);
    },

    async ofConfig(auth: AuthContext, accountId: string, blockId: number) {
      await configs.get(auth, accountId, blockId);
      return repo.ofConfig(db, accountId, blockId);
    },
  };
}

export type TariffHistoryService = ReturnType<typeof createTariffHistoryService>;
