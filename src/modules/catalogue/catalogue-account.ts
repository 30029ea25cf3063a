import { catalogueReadOnly } from '../../http/errors.ts';

/** The fixed account (without members) that owns the global tariff catalogue, seeded by migration 0004. */
export const CATALOGUE_ACCOUNT_ID = 'ca7a1060-0000-4000-8000-000000000001';

export function isCatalogueAccount(accountId: string): boolean {
  return accountId === CATALOGUE_ACCOUNT_ID;
}

/** 400 `Catalogue is read-only` for any write on the catalogue or on a tariff it owns (tariffs, items, blocks, transitions). */
export function assertNotCatalogue(accountId: string): void {
  if (isCatalogueAccount(accountId)) throw catalogueReadOnly();
}
