import { z } from 'zod';
import { accountQuery, recordId } from '../../http/fields.ts';

export const historyParams = (what: string) => z.object({ id: recordId.describe(`${what}, by id`) });

export const historyQuery = z.object({
  account_id: accountQuery.shape.account_id.describe('The organization the records belong to'),
});
