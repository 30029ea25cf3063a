import type { Executor } from '../db/types.ts';
import { tariffItemsRepository } from '../modules/tariff-items/tariff-items.repository.ts';
import { catalogueRepository } from '../modules/tariffs/catalogue.repository.ts';

/** The catalogue's Homeflex time-of-use tariff (id fixed by migration 0004). */
const HOMEFLEX_TOU = 6;
/** R/kWh credited for exports: the catalogue's SSEG feed-in tariff (12) pays this. */
const FEED_IN_PRICE = 1.054;

export interface DemoTariffs {
  gridTariffId: number;
}

/** A copy of Homeflex time-of-use with a feed-in credit on what the meter exports. */
export async function cloneHomeflexWithFeedIn(tx: Executor, accountId: string, name?: string) {
  const tariff = await catalogueRepository.clone(tx, HOMEFLEX_TOU, accountId, name);
  await tariffItemsRepository.insert(tx, accountId, tariff.id, {
    item_type_code: 'EXPORTED_ENERGY',
    price: FEED_IN_PRICE,
    season: 'ALL_YEAR',
  });
  return tariff;
}

/**
 * Homeflex with the feed-in credit for the grid meter: the grid bill is the site's whole bill, so
 * solar and load carry no tariff of their own.
 */
export async function seedDemoTariffs(tx: Executor, accountId: string): Promise<DemoTariffs> {
  const grid = await cloneHomeflexWithFeedIn(tx, accountId);
  return { gridTariffId: grid.id };
}
