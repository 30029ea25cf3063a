import type { Executor } from '../../db/types.ts';
import type { Dso } from '../reference/reference.model.ts';
import type { TariffItem } from './tariff-basics.ts';
import type { TariffRow } from './tariffs.repository.ts';

/** Reads of a tariff's items, given by the module that owns them. */
export interface TariffItemsReader {
  /** Every item of the tariff with its blocks, in creation order (inside the caller's transaction when given one). */
  ofTariff(db: Executor, accountId: string, tariffId: number): Promise<TariffItem[]>;
  /** The ids of the tariff's items that have demand_periods. */
  withDemandPeriods(db: Executor, tariffId: number): Promise<number[]>;
}

/** Reads of reference data, given by the reference module; inside the caller's transaction when given one. */
export interface ReferenceReader {
  /** The DSO, or undefined when there is none with this id. */
  dso(db: Executor, id: number): Promise<Dso | undefined>;
  scheduleExists(db: Executor, id: number): Promise<boolean>;
  /** The time-of-use schedule with its DSO, seasons and rules, or undefined. */
  schedule(db: Executor, id: number): Promise<object | undefined>;
}

/** A tariff as single reads return it: with its items (each with its blocks) and its DSO or null. */
export type TariffDetails = ReturnType<typeof createTariffDetails>;

export function createTariffDetails(
  items: Pick<TariffItemsReader, 'ofTariff'>,
  reference: Pick<ReferenceReader, 'dso'>,
) {
  return async (db: Executor, tariff: TariffRow) => {
    const [tariffItems, dso] = await Promise.all([
      items.ofTariff(db, tariff.account_id, tariff.id),
      tariff.dso_id === null ? undefined : reference.dso(db, tariff.dso_id),
    ]);
    return { ...tariff, tariff_items: tariffItems, dso: dso ?? null };
  };
}
