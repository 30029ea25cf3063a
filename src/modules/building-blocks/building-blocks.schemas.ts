import { z } from 'zod';
import { bodyId, recordId, text, uuid } from '../../http/fields.ts';
import { commonSort, listQuerySchema } from '../../http/list.ts';

export const BUILDING_TYPES = [
  'RESIDENTIAL',
  'COMMERCIAL',
  'INDUSTRIAL',
  'MIXED_USE',
  'PUBLIC',
  'AGRICULTURAL',
  'OTHER',
] as const;
export type BuildingType = (typeof BUILDING_TYPES)[number];
const buildingType = z.enum(BUILDING_TYPES);

const requiredFields = {
  name: text(1, 200),
  building_type: buildingType,
  address: text(1, 500),
  city: text(1, 200),
  state: text(1, 200),
  postal_code: z.number().int().min(0).max(999_999_999),
  country: text(1, 200),
};

const optionalFields = {
  description: text(0, 4000).nullable(),
  parent_id: bodyId.nullable().describe('Parent building block (same organization); null for a top-level block'),
  area: z.number().min(0).nullable(),
  is_active: z.boolean(),
  location: text(0, 500).nullable(),
};

/**
 * A required column that may be absent (or null) here: the database then refuses the row (23502),
 * which the contract reports in its database-error form. A value that is present is still checked.
 * The reference shows the field as the column needs it: required, not null.
 */
function requiredColumn<T extends z.ZodType>(field: T) {
  const { $schema: _, ...documented } = z.toJSONSchema(field, { io: 'input' });
  return field.nullish().meta({ anyOf: undefined, ...documented });
}

const REQUIRED_COLUMNS = Object.keys(requiredFields);

export const createBuildingBlockBody = z
  .strictObject({
    account_id: uuid,
    name: requiredColumn(requiredFields.name),
    building_type: requiredColumn(requiredFields.building_type),
    address: requiredColumn(requiredFields.address),
    city: requiredColumn(requiredFields.city),
    state: requiredColumn(requiredFields.state),
    postal_code: requiredColumn(requiredFields.postal_code),
    country: requiredColumn(requiredFields.country),
  })
  .extend(z.object(optionalFields).partial().shape)
  .meta({ required: ['account_id', ...REQUIRED_COLUMNS] });
export type CreateBuildingBlock = z.infer<typeof createBuildingBlockBody>;

const typeAlias = {
  type: buildingType.optional().describe('Another name for building_type'),
};
const typeAliasAgrees = (value: { type?: BuildingType | undefined; building_type?: BuildingType | undefined }) =>
  !value.type || !value.building_type || value.type === value.building_type;
const TYPE_ALIAS_CONFLICT = { path: ['type'], message: 'Must equal building_type when both are given' };

export const updateBuildingBlockBody = z
  .strictObject({ account_id: uuid, ...typeAlias })
  .extend(z.object({ ...requiredFields, ...optionalFields }).partial().shape)
  .refine(typeAliasAgrees, TYPE_ALIAS_CONFLICT);
export type UpdateBuildingBlock = z.infer<typeof updateBuildingBlockBody>;

export const BUILDING_BLOCK_SORT = commonSort('b', [
  'building_type',
  'city',
  'country',
  'postal_code',
  'area',
  'parent_id',
]);

export const listBuildingBlocksQuery = listQuerySchema(BUILDING_BLOCK_SORT)
  .extend({
    account_id: uuid,
    parent_id: recordId.optional().describe('Only the children of this building block'),
    building_type: buildingType.optional(),
    ...typeAlias,
  })
  .refine(typeAliasAgrees, TYPE_ALIAS_CONFLICT);
export type ListBuildingBlocksQuery = z.infer<typeof listBuildingBlocksQuery>;

/** `type` is another name for building_type. */
export function buildingTypeOf(value: { type?: BuildingType | undefined; building_type?: BuildingType | undefined }) {
  return value.building_type ?? value.type;
}
