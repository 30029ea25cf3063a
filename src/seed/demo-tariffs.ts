import type { Executor } from '../db/types.ts';
import { tariffItemsRepository } from '../modules/tariff-items/tariff-items.repository.ts';
import { catalogueRepository } from '../modules/tariffs/catalogue.repository.ts';

/** The catalogue's Homeflex 1 time-of-use tariff of 2025/26 (id fixed by migration 0004). */
const HOMEFLEX_2025 = 6;
/** R/kWh credited for exports: the catalogue's SSEG feed-in tariff (12) pays this. */
const FEED_IN_PRICE = 1.054;

export interface DemoTariffs {
  gridTariffId: number;
}

/**
 * A copy of a catalogue Homeflex time-of-use tariff with a feed-in credit on what the meter exports
 * (in the source's family unless `own` names another or null).
 */
export async function cloneHomeflexWithFeedIn(
  tx: Executor,
  accountId: string,
  catalogueId: number,
  own: { name?: string; family?: string | null } = {},
) {
  const tariff = await catalogueRepository.clone(tx, catalogueId, accountId, own);
  await tariffItemsRepository.insert(tx, accountId, tariff.id, {
    item_type_code: 'EXPORTED_ENERGY',
    price: FEED_IN_PRICE,
    season: 'ALL_YEAR',
  });
  return tariff;
}

/**
 * Homeflex 2025/26 with the feed-in credit for the grid meter, its first tariff (the tariffs of
 * later years follow it through transitions): the grid bill is the site's whole bill, so solar and
 * load carry no tariff of their own.
 */
export async function seedDemoTariffs(tx: Executor, accountId: string): Promise<DemoTariffs> {
  const grid = await cloneHomeflexWithFeedIn(tx, accountId, HOMEFLEX_2025);
  return { gridTariffId: grid.id };
}
