import { z } from 'zod';
import { EXAMPLE } from '../../http/examples.ts';
import { integer, listEnvelope, okEnvelope, timestamp, uuidValue } from '../../http/responses.ts';
import { BUILDING_TYPES } from './building-blocks.schemas.ts';

/** The demo's site, as the examples show it. */
const SITE_EXAMPLE = {
  id: 1,
  account_id: EXAMPLE.accountId,
  name: 'Demo Campus',
  building_type: 'MIXED_USE' as const,
  description: 'Demo site with two buildings',
  address: '12 Dock Road',
  city: 'Cape Town',
  state: 'Western Cape',
  postal_code: 8001,
  country: 'South Africa',
  parent_id: null,
  area: 12000,
  is_active: true,
  location: '-33.9090,18.4200',
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.createdAt,
  has_dashboard_config: true,
};

const buildingBlock = z
  .strictObject({
    id: integer,
    account_id: uuidValue,
    name: z.string(),
    building_type: z.enum(BUILDING_TYPES),
    description: z.string().nullable(),
    address: z.string(),
    city: z.string(),
    state: z.string(),
    postal_code: z.number(),
    country: z.string(),
    parent_id: integer.nullable().describe('The parent block; null for a top-level block'),
    area: z.number().nullable(),
    is_active: z.boolean(),
    location: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    has_dashboard_config: z
      .boolean()
      .describe('Whether the block has a dashboard config: GET /building_blocks/{id}/config answers 404 when not'),
  })
  .meta({ examples: [SITE_EXAMPLE] });

export const buildingBlockResponses = {
  list: listEnvelope(buildingBlock, 'A page of building blocks', 7),
  created: okEnvelope(buildingBlock, 'The new building block'),
  block: okEnvelope(buildingBlock, 'The building block'),
};
