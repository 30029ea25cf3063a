import { z } from 'zod';
import { integer, okEnvelope, timestamp } from '../../http/responses.ts';

const money = z.number().describe('In the currency, at most 2 decimals');
const kwh = z.number().describe('Imported kWh');

const tenant = z.strictObject({
  building_block_id: integer,
  name: z.string(),
  meter_sn: z.string().nullable().describe("The tenant's grid meter"),
  import_kwh: kwh.nullable().describe('null when the tenant is not priced'),
  total: money.nullable(),
  priced: z.boolean(),
  reason: z.string().nullable().describe('Why the tenant is not priced'),
});

const recovery = z
  .strictObject({
    building_block_id: integer,
    start: timestamp,
    end: timestamp,
    currency: z.string().describe("The supply bill's currency"),
    supply: z.strictObject({ meter_sn: z.string(), import_kwh: kwh, total: money }),
    tenants: z.array(tenant),
    recovered: z.strictObject({ import_kwh: kwh, total: money }),
    unrecovered: z.strictObject({
      import_kwh: kwh.describe('supply - recovered; negative when the tenants used more than the supply shows'),
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
        currency: 'ZAR',
        supply: { meter_sn: 'DEMO-GRID-001', import_kwh: 16120.391, total: 43450.99 },
        tenants: [
          {
            building_block_id: 2,
            name: 'Shop 1',
            meter_sn: 'SHOP-1',
            import_kwh: 9500,
            total: 27550.4,
            priced: true,
            reason: null,
          },
          {
            building_block_id: 3,
            name: 'Shop 2',
            meter_sn: 'SHOP-2',
            import_kwh: null,
            total: null,
            priced: false,
            reason: 'No tariff configured',
          },
        ],
        recovered: { import_kwh: 9500, total: 27550.4 },
        unrecovered: { import_kwh: 6620.391, total: 15900.59, share_pct: 41.07 },
      },
    ],
  });

export const tenantRecoveryResponses = {
  recovery: okEnvelope(recovery, "The supply, each tenant's bill, what they recover and what is left"),
};
