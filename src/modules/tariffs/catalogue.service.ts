import type { Database } from '../../db/types.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { notFound } from '../../http/errors.ts';
import { catalogueRepository } from './catalogue.repository.ts';
import type { CatalogueListQuery, CloneBody } from './catalogue.schemas.ts';
import type { TariffAccess } from './tariff-access.ts';
import { CATALOGUE_ACCOUNT_ID, isCatalogueAccount } from './tariff-basics.ts';
import type { TariffDetails } from './tariff-details.ts';
import { overlappingVersions } from './tariff-rules.ts';
import { tariffsRepository } from './tariffs.repository.ts';

interface CatalogueDeps {
  db: Database;
  tariffAccess: Pick<TariffAccess, 'requireAccount' | 'transaction'>;
  details: TariffDetails;
}

/** The catalogue is readable by every signed-in user: its reads need no organization. */
export function createCatalogueService({ db, tariffAccess: access, details: tariffDetails }: CatalogueDeps) {
  async function catalogueTariff(id: number) {
    const tariff = await tariffsRepository.find(db, id);
    if (!tariff || !isCatalogueAccount(tariff.account_id)) throw notFound('Catalogue tariff');
    return tariff;
  }

  return {
    list(query: CatalogueListQuery) {
      return tariffsRepository.list(db, { ...query, accountId: CATALOGUE_ACCOUNT_ID }, query, true);
    },

    async get(id: number) {
      return tariffDetails(db, await catalogueTariff(id));
    },

    /** An independent, fully mutable copy in the destination organization: all of it or nothing. */
    async clone(auth: AuthContext, id: number, body: CloneBody) {
      await access.requireAccount(auth, body.account_id, 'write');
      const source = await catalogueTariff(id);
      return access.transaction(auth, body.account_id, async (tx) =>
        tariffDetails(tx, await overlappingVersions(catalogueRepository.clone(tx, source.id, body.account_id, body))),
      );
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
