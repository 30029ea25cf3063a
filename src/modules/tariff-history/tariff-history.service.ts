import type { Database } from '../../db/types.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { tariffHistoryRepository as repo } from './tariff-history.repository.ts';

/** A read of a record by id that answers 403 or 404 as reading the record itself does. */
interface RecordRead {
  get(auth: AuthContext, accountId: string, id: number): Promise<unknown>;
}

export interface TariffHistoryDeps {
  db: Database;
  /** Reading a meter: its history is read after the same checks. */
  meters: RecordRead;
  /** Reading a building block's config: its sources' history is read after the same checks. */
  configs: RecordRead;
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
