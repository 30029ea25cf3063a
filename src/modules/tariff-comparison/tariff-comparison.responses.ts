import { z } from 'zod';
import { ENERGY_SOURCES } from '../../db/energy-sources.ts';
import { integer, okEnvelope, timestamp } from '../../http/responses.ts';

const money = z.number().describe('In the currency, at most 2 decimals');
const months = z
  .array(z.strictObject({ month: z.string().describe('YYYY-MM in the tariff’s timezone'), total: money }))
  .describe('The total of each calendar month of the period');

const current = z.strictObject({
  total: money.nullable().describe('null when no part of the period has a tariff'),
  months,
  complete: z.boolean(),
  warnings: z.array(z.string()),
});

const candidate = z.strictObject({
  tariff_id: integer,
  name: z.string(),
  catalogue: z.boolean().describe('A catalogue tariff (else the organization’s own)'),
  currency: z.string(),
  family: z.string().nullable().describe('Priced through the versions of this family, each day with the one in force'),
  eligible: z.boolean().describe('The building may take it: class, NMD, in force on the last day, its supplier'),
  reasons: z.array(z.string()).describe('Why it is not eligible; empty when it is'),
  nmd_kva_used: z.number().nullable().describe('The NMD (kVA) eligibility and pricing used; null: unknown'),
  total: money
    .nullable()
    .describe(
      'null when the tariff cannot price these readings or prices none of their energy (the reason in warnings)',
    ),
  difference: money.nullable().describe('total - current.total; negative: this tariff costs less'),
  months,
  complete: z.boolean(),
  warnings: z.array(z.string()),
});

const comparison = z
  .strictObject({
    building_block_id: integer,
    source: z.enum(ENERGY_SOURCES),
    meter_sn: z.string(),
    start: timestamp,
    end: timestamp,
    currency: z.string().nullable().describe('The current bill’s currency; null when it is not priced'),
    current,
    recommendation: z
      .strictObject({
        tariff_id: integer,
        name: z.string(),
        family: z.string().nullable(),
        saving: money.describe('current.total - the candidate’s total'),
        saving_pct: z.number().describe('saving as a percentage of current.total, 2 decimals'),
      })
      .nullable()
      .describe('The cheapest eligible, complete candidate in force, when it saves more than 1 % of the current total'),
    recommendation_reason: z.string().nullable().describe('Why there is no recommendation; null when there is one'),
    warnings: z.array(z.string()).describe('About the comparison as a whole, e.g. an estimated NMD'),
    candidates: z.array(candidate),
  })
  .meta({
    examples: [
      {
        building_block_id: 1,
        source: 'grid',
        meter_sn: 'DEMO-GRID-001',
        start: '2026-09-30T22:00:00.000Z',
        end: '2026-10-31T22:00:00.000Z',
        currency: 'ZAR',
        current: { total: 43450.99, months: [{ month: '2026-10', total: 43450.99 }], complete: true, warnings: [] },
        recommendation: null,
        recommendation_reason: 'the current tariff is the cheapest eligible one',
        warnings: ['NMD estimated from the highest demand: 412 kVA'],
        candidates: [
          {
            tariff_id: 1001,
            name: 'Demo Commercial TOU',
            catalogue: false,
            currency: 'ZAR',
            family: 'eskom-homeflex-1',
            eligible: true,
            reasons: [],
            nmd_kva_used: 412,
            total: 43450.99,
            difference: 0,
            months: [{ month: '2026-10', total: 43450.99 }],
            complete: true,
            warnings: [],
          },
        ],
      },
    ],
  });

export const tariffComparisonResponses = {
  comparison: okEnvelope(comparison, 'The current bill and each candidate’s, cheapest first'),
};
