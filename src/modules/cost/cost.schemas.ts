import { z } from 'zod';
import { storable, uuid } from '../../http/fields.ts';
import { periodFields, validPeriod } from '../../http/period.ts';

const range = z.object({ account_id: uuid, ...periodFields });

export const tariffCostQuery = range.extend({ meter_sn: storable(z.string().min(1).max(64)) }).superRefine(validPeriod);
export type TariffCostQuery = z.infer<typeof tariffCostQuery>;

export const buildingCostQuery = range.superRefine(validPeriod);
export type BuildingCostQuery = z.infer<typeof buildingCostQuery>;
