import { listEnvelope, okEnvelope } from '../../http/responses.ts';
import { CATALOGUE_ACCOUNT_ID } from './tariff-basics.ts';
import { GRID_TARIFF_EXAMPLE, ITEM_EXAMPLE, tariffDetail, tariffRecord } from './tariffs.responses.ts';

/** The catalogue's Homeflex, which the demo's grid tariff was cloned from. */
const HOMEFLEX = { ...GRID_TARIFF_EXAMPLE, id: 6, account_id: CATALOGUE_ACCOUNT_ID, cloned_from: null };

const catalogueTariff = tariffRecord.meta({ examples: [HOMEFLEX] });
const catalogueDetail = tariffDetail.meta({
  examples: [
    {
      ...HOMEFLEX,
      tariff_items: [{ ...ITEM_EXAMPLE, id: 4, tariff_id: 6 }],
      dso: { id: 1, name: 'Eskom', tz: 'Africa/Johannesburg' },
    },
  ],
});

export const catalogueResponses = {
  list: listEnvelope(catalogueTariff, 'A page of catalogue tariffs (without their items)', 19),
  tariff: okEnvelope(catalogueDetail, 'The catalogue tariff with its items and DSO'),
  clone: okEnvelope(
    tariffDetail,
    "The new tariff in the destination organization (cloned_from: the catalogue tariff's id)",
  ),
};
