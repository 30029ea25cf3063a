import { z } from 'zod';
import {
  bodyId,
  DATE_TIME_RULE,
  dateOrDateTimeText,
  dateTimeText,
  decimal,
  recordId,
  recordIdParams,
  storable,
  text,
  uuid,
} from '../../http/fields.ts';
import { commonSort, listQuerySchema } from '../../http/list.ts';
import { isTimeZone } from '../../lib/time-zone.ts';
import { CURRENCIES, CUSTOMER_CLASSES, METER_TYPES, TARIFF_TYPES } from './tariff-enums.ts';
import { checkTariffRules } from './tariff-rules.ts';

export const tariffIdParams = recordIdParams('Tariff');

const nmdBound = (bound: string) =>
  decimal(0, 1_000_000, 3)
    .nullable()
    .describe(`The ${bound} notified maximum demand (kVA) of a supply that may take the tariff; null: no bound`);

const tariffFields = {
  name: text(1, 200),
  description: storable(z.string().max(4000)).nullable(),
  timezone: z
    .string()
    .max(64)
    .refine(isTimeZone, 'Invalid IANA time zone')
    .describe('IANA time zone, e.g. Africa/Johannesburg'),
  notes: storable(z.string().max(4000)).nullable(),
  meter_type: z.enum(METER_TYPES),
  tariff_type: z.enum(TARIFF_TYPES),
  dso_id: bodyId.nullable().describe('Energy provider (DSO); must exist'),
  tou_schedule_id: bodyId.nullable().describe('Required for TIME_OF_USE tariffs, forbidden for the others'),
  effective_from: dateOrDateTimeText('The first day of the tariff', 'Invalid ISO 8601 date'),
  effective_to: dateOrDateTimeText('The last day of the tariff, on or after effective_from', 'Invalid ISO 8601 date'),
  currency: z.enum(CURRENCIES),
  tax_rate: z.number().min(0).max(100).describe('Percentage, 0 to 100'),
  is_active: z.boolean(),
  cloned_from: bodyId.nullable(),
  customer_classes: z
    .array(z.enum(CUSTOMER_CLASSES))
    .min(1)
    .refine((classes) => new Set(classes).size === classes.length, 'Each class once')
    .nullable()
    .describe('The supplies that may take the tariff, by building_type; null: any'),
  min_nmd_kva: nmdBound('lowest'),
  max_nmd_kva: nmdBound('highest'),
  family: text(1, 100)
    .nullable()
    .describe(
      "The tariff's versions share a family (e.g. eskom-megaflex), each with its own effective dates; two versions of one family of one organization whose dates overlap: 409",
    ),
};

const optionalTariffFields = z.strictObject(tariffFields).partial();

export const createTariffBody = optionalTariffFields
  .extend({
    account_id: uuid,
    name: tariffFields.name,
    tariff_type: tariffFields.tariff_type.default('FLAT'),
    effective_from: tariffFields.effective_from,
    effective_to: tariffFields.effective_to,
  })
  .superRefine(checkTariffRules);
export type CreateTariffBody = z.infer<typeof createTariffBody>;

const DELETES = 'A time deletes the tariff (soft)';

export const updateTariffBody = optionalTariffFields.extend({
  account_id: uuid,
  deleted_at: dateTimeText(DELETES).nullable().optional().describe(`${DELETES}. ${DATE_TIME_RULE}`),
  updated_by: uuid
    .optional()
    .describe("The signed-in user's id: the change is recorded as theirs, and another user's id is refused (400)"),
});
export type UpdateTariffBody = z.infer<typeof updateTariffBody>;
export type TariffChanges = z.infer<typeof optionalTariffFields>;

export const TARIFF_SORT = commonSort('t', ['effective_from', 'effective_to', 'meter_type', 'tariff_type']);

/** Filters shared by the organization's list and the catalogue. */
export const tariffFilters = {
  meter_type: z.enum(METER_TYPES).optional(),
  tariff_type: z.enum(TARIFF_TYPES).optional(),
  dso_id: recordId.optional(),
};

export const tariffListQuery = listQuerySchema(TARIFF_SORT).extend({ account_id: uuid, ...tariffFilters });
export type TariffListQuery = z.infer<typeof tariffListQuery>;
