import { z } from 'zod';
import { SOURCES } from '../../db/energy-sources.ts';
import { integer, listEnvelope, timestamp } from '../../http/responses.ts';

const CAUSES = ['CREATE', 'UPDATE', 'TRANSITION', 'DELETE', 'EXISTING'] as const;

const recordFields = {
  id: integer,
  tariff_id: integer.nullable().describe('null: no tariff from this instant'),
  effective_from: timestamp.nullable().describe('null: from the beginning of time (the first record)'),
  recorded_at: timestamp,
  cause: z.enum(CAUSES),
  transition_id: integer.nullable().describe('The transition applied (cause TRANSITION)'),
};

const FIRST = {
  id: 1,
  tariff_id: 1001,
  effective_from: null,
  recorded_at: '2026-11-23T08:00:00.000Z',
  cause: 'CREATE',
  transition_id: null,
};

const meterRecord = z
  .strictObject({ ...recordFields, meter_id: integer })
  .meta({ examples: [{ ...FIRST, meter_id: 1 }] });

const sourceRecord = z
  .strictObject({ ...recordFields, building_block_id: integer, source: z.enum(SOURCES) })
  .meta({ examples: [{ ...FIRST, cause: 'UPDATE', building_block_id: 1, source: 'grid' }] });

export const tariffHistoryResponses = {
  meter: listEnvelope(meterRecord, "The meter's tariff records, oldest first"),
  config: listEnvelope(sourceRecord, "The config sources' tariff records, oldest first"),
};
