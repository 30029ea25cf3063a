import { z } from 'zod';
import { SOURCES } from '../../db/energy-sources.ts';
import { integer, okEnvelope, timestamp } from '../../http/responses.ts';
import { CURRENCIES, ITEM_TYPE_CODES, SEASONS, TOU_PERIODS } from '../tariffs/tariffs.model.ts';

const money = z.number().describe('In the currency, at most 2 decimals');

export const billLine = z.strictObject({
  item_type_code: z.enum(ITEM_TYPE_CODES),
  season: z.enum(SEASONS).describe('The season of the tariff item applied'),
  period: z.enum(TOU_PERIODS).nullable().describe('Time-of-use period; null for other items'),
  block_index: integer.nullable().describe('The tier; null for items without tiers'),
  quantity: z.number(),
  unit: z.string().describe('Unit of the quantity: kWh, kvarh, kVA, day, month'),
  unit_price: z.number().describe('In the currency per unit; negative for a credit'),
  amount: money.describe('quantity x unit_price, rounded to the cent'),
});

const DEMO_BILL = {
  tariff_id: 1001,
  meter_sn: 'DEMO-GRID-001',
  start: '2026-09-30T22:00:00.000Z',
  end: '2026-10-31T22:00:00.000Z',
  currency: 'ZAR',
  approximate: false,
  import_kwh: 16120.391,
  export_kwh: 520.643,
  kvarh: 10036.388,
  max_kva: 70.690838,
  lines: [
    {
      item_type_code: 'TOU_PEAK_ENERGY',
      season: 'SUMMER',
      period: 'PEAK',
      block_index: null,
      quantity: 2865.571,
      unit: 'kWh',
      unit_price: 3.2928,
      amount: 9435.75,
    },
    {
      item_type_code: 'SERVICE',
      season: 'ALL_YEAR',
      period: null,
      block_index: null,
      quantity: 31,
      unit: 'day',
      unit_price: 3.27,
      amount: 101.37,
    },
    {
      item_type_code: 'EXPORTED_ENERGY',
      season: 'ALL_YEAR',
      period: null,
      block_index: null,
      quantity: 520.643,
      unit: 'kWh',
      unit_price: -1.054,
      amount: -548.76,
    },
  ],
  subtotal: 37783.47,
  tax_rate: 15,
  tax: 5667.52,
  total: 43450.99,
  missing_intervals: 0,
  complete: true,
  warnings: [],
};

/** A one-month bill's only month: the bill itself. */
function onlyMonth(b: typeof DEMO_BILL) {
  const { start, end, import_kwh, export_kwh, kvarh, max_kva, lines, subtotal, tax, total, missing_intervals } = b;
  return {
    month: '2026-10',
    start,
    end,
    import_kwh,
    export_kwh,
    kvarh,
    max_kva,
    chargeable_kva: null,
    demand: { max_kva, chargeable_kva: null, utilised_kva: null, nmd_kva: null, excess_kva: null },
    lines,
    subtotal,
    tax,
    total,
    missing_intervals,
    complete: b.complete,
    warnings: b.warnings,
  };
}

const DEMO_BILL_WITH_MONTHS = { ...DEMO_BILL, months: [onlyMonth(DEMO_BILL)] };

const kva = (description: string) => z.number().nullable().describe(description);

const demand = z
  .strictObject({
    max_kva: kva("The month's highest half-hour demand; null without readings"),
    chargeable_kva: kva(
      'The highest half-hour demand in the demand_periods of the NETWORK_DEMAND kVA/month item, else of the first MONTH_MAX kVA/month item; null without either',
    ),
    utilised_kva: kva(
      'The UTILISED_CAPACITY basis: the higher of the NMD and the highest half hour of the 12 months ending with this one; null when no item uses it',
    ),
    nmd_kva: kva("The meter's notified maximum demand; null when not set"),
    excess_kva: kva("The EXCESS basis: the month's maximum above the NMD, else 0; null when no item uses it"),
  })
  .describe("The month's demand figures in kVA");

const WARNINGS =
  "Each text once: missing readings ('No readings in YYYY-MM' for a month without any), quantities no item prices ('No <ITEM_TYPE> item for <SEASON>: <quantity> <unit> not priced'; 'no season' on a tariff without a DSO), item types without meaning for the meter (electricity or water), energy outside the schedule, a notified maximum demand needed and missing, kVA taken as kW, a period outside the tariff's effective dates, a DYNAMIC tariff priced from its items";

const VOLUME = z
  .number()
  .describe("A water meter's bill only: the kL used (its import_kwh, export_kwh and kvarh are 0, max_kva null)");

const COMPLETE =
  'Nothing missing and nothing unpriced: no interval without a reading, no unpriced energy, days or demand';

const billMonth = z.strictObject({
  month: z.string().describe("YYYY-MM, a calendar month of the tariff's timezone"),
  start: timestamp.describe("The month's part of the period: its start"),
  end: timestamp,
  volume_kl: VOLUME.optional(),
  import_kwh: z.number(),
  export_kwh: z.number(),
  kvarh: z.number(),
  max_kva: z.number().nullable().describe("The month's highest half-hour demand; null without readings"),
  chargeable_kva: z.number().nullable().describe('demand.chargeable_kva'),
  demand,
  lines: z.array(billLine),
  subtotal: money,
  tax: money.describe("subtotal x tax_rate / 100, rounded to the cent: each month's tax is its own"),
  total: money,
  missing_intervals: integer.describe(
    "The meter's aligned interval starts in the month's part of the period without a reading",
  ),
  complete: z.boolean().describe(COMPLETE),
  warnings: z.array(z.string()).describe(`The month's own warnings. ${WARNINGS}`),
});

const bill = z
  .strictObject({
    tariff_id: integer,
    meter_sn: z.string(),
    start: timestamp,
    end: timestamp,
    currency: z.enum(CURRENCIES),
    approximate: z.boolean().describe('A DYNAMIC tariff priced from its items, or energy outside the schedule'),
    volume_kl: VOLUME.optional(),
    import_kwh: z.number(),
    export_kwh: z.number(),
    kvarh: z.number(),
    max_kva: z.number().nullable(),
    lines: z.array(billLine),
    subtotal: money,
    tax_rate: z.number().describe('Percentage'),
    tax: money.describe("The months' taxes added up"),
    total: money,
    missing_intervals: integer.describe("The meter's aligned interval starts in the period without a reading"),
    complete: z.boolean().describe(`Every month is complete. ${COMPLETE}`),
    warnings: z.array(z.string()).describe(`The months' warnings. ${WARNINGS}`),
    months: z
      .array(billMonth)
      .describe("The bill per calendar month; the bill's lines, subtotal, tax and total are the months' added up"),
  })
  .meta({ examples: [DEMO_BILL_WITH_MONTHS] });

const unpriced = (source: string, reason: string, meter: { id: number; sn: string } | null) => ({
  source,
  meter_id: meter?.id ?? null,
  tariff_id: null,
  meter_sn: meter?.sn ?? null,
  priced: false,
  reason,
  bills: [],
  total: null,
});

const buildingCost = z
  .strictObject({
    building_block_id: integer,
    start: timestamp,
    end: timestamp,
    sources: z.array(
      z.strictObject({
        source: z.enum(SOURCES),
        meter_id: integer.nullable(),
        tariff_id: integer.nullable(),
        meter_sn: z.string().nullable().describe("The source meter's serial; null when the source has no meter"),
        priced: z.boolean(),
        reason: z.string().nullable().describe('Why the source is not priced'),
        bills: z.array(bill).describe('One per tariff that applied (a transition in the period splits it)'),
        total: money.nullable(),
      }),
    ),
    totals: z.record(z.string(), money).describe('The total of the priced sources, by currency'),
  })
  .meta({
    examples: [
      {
        building_block_id: 1,
        start: DEMO_BILL.start,
        end: DEMO_BILL.end,
        sources: [
          {
            source: 'grid',
            meter_id: 1,
            tariff_id: 1001,
            meter_sn: 'DEMO-GRID-001',
            priced: true,
            reason: null,
            bills: [DEMO_BILL_WITH_MONTHS],
            total: 43450.99,
          },
          unpriced('solar', 'No tariff configured', { id: 2, sn: 'DEMO-SOLAR-001' }),
          unpriced('genset', 'No meter and no tariff configured', null),
          unpriced('inverter', 'No meter and no tariff configured', null),
          unpriced('load', 'No tariff configured', { id: 3, sn: 'DEMO-LOAD-001' }),
        ],
        totals: { ZAR: 43450.99 },
      },
    ],
  });

export const costResponses = {
  meter: okEnvelope(bill, "The meter's bill for the period with the tariff named"),
  building: okEnvelope(buildingCost, "The bills of the block's energy sources"),
};
