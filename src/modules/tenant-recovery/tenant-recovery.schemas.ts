import { z } from 'zod';
import { uuid } from '../../http/fields.ts';
import { periodFields, validPeriod } from '../../http/period.ts';

export const recoveryQuery = z.object({ account_id: uuid, ...periodFields }).superRefine(validPeriod);
export type RecoveryQuery = z.infer<typeof recoveryQuery>;
