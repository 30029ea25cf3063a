import type { Executor } from '../db/types.ts';
import { catalogueRepository } from '../modules/catalogue/catalogue.repository.ts';

/** Catalogue tariffs the demo prices its meters with (ids fixed by migration 0004). */
const HOMEFLEX_TOU = 6;
const SSEG_FEED_IN = 12;

export interface DemoTariffs {
  gridTariffId: number;
  solarTariffId: number;
  loadTariffId: number;
}

/** Clones the demo's tariffs from the catalogue: Homeflex time-of-use for grid and load, a feed-in credit for solar. */
export async function seedDemoTariffs(tx: Executor, accountId: string): Promise<DemoTariffs> {
  const homeflex = await catalogueRepository.clone(tx, HOMEFLEX_TOU, accountId);
  const feedIn = await catalogueRepository.clone(tx, SSEG_FEED_IN, accountId);
  return { gridTariffId: homeflex.id, solarTariffId: feedIn.id, loadTariffId: homeflex.id };
}
