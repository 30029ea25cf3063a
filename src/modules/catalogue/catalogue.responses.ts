import { listEnvelope, okEnvelope } from '../../http/responses.ts';
import { tariffDetail, tariffRecord } from '../tariffs/tariffs.responses.ts';
import { CATALOGUE_ACCOUNT_ID } from './catalogue-account.ts';

const HOMEFLEX = {
  id: 6,
  account_id: CATALOGUE_ACCOUNT_ID,
  name: 'Eskom Homeflex 1 2025/26',
  description: 'Eskom residential time-of-use tariff for grid-tied customers.',
  dso_id: 1,
  tou_schedule_id: 3,
  meter_type: 'ELECTRICITY',
  tariff_type: 'TIME_OF_USE',
  currency: 'ZAR',
  tax_rate: 15,
  is_active: true,
  effective_from: '2025-04-01',
  effective_to: '2026-03-31',
  timezone: 'Africa/Johannesburg',
  notes: null,
  cloned_from: null,
  created_at: '2026-11-23T08:00:00.000Z',
  updated_at: '2026-11-23T08:00:00.000Z',
};

const catalogueTariff = tariffRecord.meta({ examples: [HOMEFLEX] });
const catalogueDetail = tariffDetail.meta({
  examples: [
    {
      ...HOMEFLEX,
      tariff_items: [
        { id: 4, tariff_id: 6, item_type_code: 'TOU_PEAK_ENERGY', price: 3.2928, season: 'SUMMER', tariff_blocks: [] },
      ],
      dso: { id: 1, name: 'Eskom', tz: 'Africa/Johannesburg' },
    },
  ],
});

export const catalogueResponses = {
  list: listEnvelope(catalogueTariff, 'A page of catalogue tariffs (without their items)', 14),
  tariff: okEnvelope(catalogueDetail, 'The catalogue tariff with its items and DSO'),
  clone: okEnvelope(
    tariffDetail,
    "The new tariff in the destination organization (cloned_from: the catalogue tariff's id)",
  ),
};
