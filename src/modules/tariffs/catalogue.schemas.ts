import { z } from 'zod';
import { dateText, recordId, text, uuid } from '../../http/fields.ts';
import { listQuerySchema } from '../../http/list.ts';
import { TARIFF_SORT, tariffFilters } from './tariffs.schemas.ts';

export const catalogueListQuery = listQuerySchema(TARIFF_SORT).extend({
  ...tariffFilters,
  effective_from_gte: dateText('Tariffs effective from this date or later').optional(),
  effective_from_lte: dateText('Tariffs effective from this date or earlier').optional(),
});
export type CatalogueListQuery = z.infer<typeof catalogueListQuery>;

export const catalogueIdParams = z.object({ id: recordId.describe('Catalogue tariff id') });

export const cloneBody = z.strictObject({
  account_id: uuid.describe('Destination organization'),
  name: text(1, 200).optional().describe("Defaults to the source tariff's name"),
  family: text(1, 100)
    .nullable()
    .optional()
    .describe(
      "Defaults to the source's family; another name or null keeps a second copy of one version (two copies in one family overlap: 409)",
    ),
});
export type CloneBody = z.infer<typeof cloneBody>;
