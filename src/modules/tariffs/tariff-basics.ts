import type { DemandBasis, ItemUnit, Period } from './tariff-enums.ts';

/** The catalogue's account and the shape of a tariff's items. */

/** The fixed account (without members) that owns the global tariff catalogue, seeded by migration 0004. */
export const CATALOGUE_ACCOUNT_ID = 'ca7a1060-0000-4000-8000-000000000001';

export function isCatalogueAccount(accountId: string): boolean {
  return accountId === CATALOGUE_ACCOUNT_ID;
}

/** An item's own fields, as stored (null where unset). */
export interface ItemValues {
  item_type_code: string;
  price: number;
  season: string;
  unit: ItemUnit | null;
  demand_periods: Period[] | null;
  demand_basis: DemandBasis | null;
  free_ratio: number | null;
  /** SEWERAGE items: the share of the water volume charged. */
  volume_share: number | null;
  /** SEWERAGE items: the most kL charged in a 30-day month. */
  max_kl: number | null;
}

export interface TariffItem extends ItemValues {
  id: number;
  tariff_id: number;
  tariff_blocks: {
    id: number;
    tariff_item_id: number;
    block_index: number;
    upper_limit: number | null;
    unit_price_cents: number;
  }[];
}
