import { z } from 'zod';
import { integer, okEnvelope, timestamp } from '../../http/responses.ts';
import { billLine } from '../cost/cost.model.ts';
import { RECOVERY_SOURCES } from './tenant-recovery.schemas.ts';

const money = z.number().describe('In the currency, at most 2 decimals');
const kwh = z.number().describe('Imported kWh; with source=water, kL of water (see unit)');

const tenant = z.strictObject({
  building_block_id: integer,
  name: z.string(),
  meter_sn: z.string().nullable().describe("The tenant's meter of the source (grid, or water supply)"),
  import_kwh: kwh.describe("The kWh its bill counts; unpriced, its meter's readings of the period added up"),
  readings: z
    .strictObject({
      first_ts: timestamp.nullable().describe('The first interval read in the period; null without readings'),
      last_ts: timestamp.nullable(),
      count: integer,
    })
    .describe("The tenant's meter's readings in the period"),
  lines: z
    .array(billLine)
    .describe("Its bill's lines, as the cost answers them (several tariffs' one after the other)"),
  subtotal: money.nullable().describe('null when the tenant is not priced'),
  tax: money.nullable().describe('VAT; null when the tenant is not priced'),
  total: money.nullable().describe('null when the tenant is not priced'),
  rate_per_kwh: z
    .number()
    .nullable()
    .describe('subtotal / import_kwh (per kL with source=water), 4 decimals; null unpriced or at 0'),
  reference_total: money
    .nullable()
    .describe('Its readings priced on reference_tariff_id (tax included); null without a reference tariff'),
  over_recovery: money
    .nullable()
    .describe(
      'total - reference_total when total is above reference_total by more than 1 %, else 0; null without a reference tariff',
    ),
  priced: z.boolean(),
  reason: z.string().nullable().describe('Why the tenant is not priced'),
});

const recovery = z
  .strictObject({
    building_block_id: integer,
    start: timestamp,
    end: timestamp,
    source: z.enum(RECOVERY_SOURCES).describe('The supply recovered'),
    unit: z.enum(['kWh', 'kL']).describe('What the *_kwh fields count: kWh for grid, kL for water'),
    currency: z.string().describe("The supply bill's currency"),
    reference_tariff_id: integer.nullable().describe('The reference tariff asked for; null without'),
    supply: z.strictObject({ meter_sn: z.string(), import_kwh: kwh, total: money }),
    tenants: z.array(tenant),
    recovered: z.strictObject({ import_kwh: kwh, total: money }),
    unrecovered: z.strictObject({
      import_kwh: kwh.describe('supply - recovered; negative when the tenants used more than the supply shows'),
      unbilled_kwh: kwh.describe('The kWh of tenants metered but not priced'),
      common_kwh: kwh.describe('import_kwh - unbilled_kwh: what no tenant meters (common areas, losses)'),
      total: money.describe('supply - recovered; negative when the tenants are billed more than the supply costs'),
      share_pct: z
        .number()
        .nullable()
        .describe('unrecovered kWh / supply kWh x 100, 2 decimals; null when supply kWh is 0'),
    }),
  })
  .meta({
    examples: [
      {
        building_block_id: 1,
        start: '2026-09-30T22:00:00.000Z',
        end: '2026-10-31T22:00:00.000Z',
        source: 'grid',
        unit: 'kWh',
        currency: 'ZAR',
        reference_tariff_id: 1002,
        supply: { meter_sn: 'DEMO-GRID-001', import_kwh: 16120.391, total: 43450.99 },
        tenants: [
          {
            building_block_id: 2,
            name: 'Shop 1',
            meter_sn: 'SHOP-1',
            import_kwh: 9500,
            readings: { first_ts: '2026-09-30T22:00:00.000Z', last_ts: '2026-10-31T21:30:00.000Z', count: 1488 },
            lines: [
              {
                item_type_code: 'IMPORT_ENERGY',
                season: 'ALL_YEAR',
                period: null,
                block_index: null,
                quantity: 9500,
                unit: 'kWh',
                unit_price: 2.5216,
                amount: 23955.2,
              },
            ],
            subtotal: 23955.2,
            tax: 3593.28,
            total: 27548.48,
            rate_per_kwh: 2.5216,
            reference_total: 26610.13,
            over_recovery: 938.35,
            priced: true,
            reason: null,
          },
          {
            building_block_id: 3,
            name: 'Shop 2',
            meter_sn: 'SHOP-2',
            import_kwh: 2100.5,
            readings: { first_ts: '2026-09-30T22:00:00.000Z', last_ts: '2026-10-31T21:30:00.000Z', count: 1488 },
            lines: [],
            subtotal: null,
            tax: null,
            total: null,
            rate_per_kwh: null,
            reference_total: 5883.95,
            over_recovery: 0,
            priced: false,
            reason: 'No tariff configured',
          },
        ],
        recovered: { import_kwh: 9500, total: 27548.48 },
        unrecovered: {
          import_kwh: 6620.391,
          unbilled_kwh: 2100.5,
          common_kwh: 4519.891,
          total: 15902.51,
          share_pct: 41.07,
        },
      },
    ],
  });

const STATEMENTS_EXAMPLE = [
  '\uFEFFtenant,start,end,meter_sn,charge,season,tou_period,tier,quantity,unit,unit_price,amount',
  'Shop 1,2026-09-30T22:00:00.000Z,2026-10-31T22:00:00.000Z,SHOP-1,IMPORT_ENERGY,ALL_YEAR,,,9500,kWh,2.5216,23955.2',
  'Shop 1,2026-09-30T22:00:00.000Z,2026-10-31T22:00:00.000Z,SHOP-1,Subtotal,,,,,,,23955.2',
  'Shop 1,2026-09-30T22:00:00.000Z,2026-10-31T22:00:00.000Z,SHOP-1,VAT,,,,,,,3593.28',
  'Shop 1,2026-09-30T22:00:00.000Z,2026-10-31T22:00:00.000Z,SHOP-1,Total,,,,,,,27548.48',
  '',
].join('\r\n');

export const tenantRecoveryResponses = {
  recovery: okEnvelope(recovery, "The supply, each tenant's bill, what they recover and what is left"),
  statements: {
    description:
      "The tenants' statements: per tenant a row per line of its bill (its charge, season, time-of-use period and tier from 1), then Subtotal, VAT and Total rows; an unpriced tenant one row with its kWh (kL of water) and the reason. UTF-8 with a byte order mark; text beginning with = + - @ after a '",
    content: { 'text/csv': { schema: z.string().meta({ examples: [STATEMENTS_EXAMPLE] }) } },
  },
};
