import { z } from 'zod';
import { EXAMPLE } from '../../http/examples.ts';
import { integer, okEnvelope, timestamp, uuidValue } from '../../http/responses.ts';

const TRANSITION_EXAMPLE = {
  id: 1,
  predecessor_id: 1001,
  successor_id: 1002,
  effective_from: '2027-03-31T22:00:00.000Z',
  notes: "Next year's prices from 1 April",
  created_at: EXAMPLE.createdAt,
  created_by: EXAMPLE.userId,
  applied_at: null,
};

const transitionFields = {
  id: integer,
  predecessor_id: integer.describe('The tariff replaced'),
  successor_id: integer.describe('The tariff that replaces it'),
  effective_from: timestamp,
  notes: z.string(),
  created_at: timestamp,
  created_by: uuidValue.nullable(),
  applied_at: timestamp.nullable().describe('When meters and configs were switched; null until then'),
};

const transition = z.strictObject(transitionFields).meta({ examples: [TRANSITION_EXAMPLE] });

const APPLICATION = { applied: false, meters_updated: 0, configs_updated: 0 };

const withApplication = z
  .strictObject({
    ...transitionFields,
    application: z
      .strictObject({
        applied: z
          .boolean()
          .describe('Whether the transition was applied by this request (effective_from not in the future)'),
        meters_updated: integer,
        configs_updated: integer.describe('Dashboard config tariff fields switched'),
      })
      .describe('What this request applied'),
  })
  .meta({ examples: [{ ...TRANSITION_EXAMPLE, application: APPLICATION }] });

export const transitionResponses = {
  transition: okEnvelope(transition, "The tariff's successor transition"),
  created: okEnvelope(withApplication, 'The new transition, and what applying it changed'),
  updated: okEnvelope(withApplication, 'The transition, and what applying it changed'),
};
