import { z } from 'zod';
import { SOURCES } from '../../db/energy-sources.ts';
import { EXAMPLE } from '../../http/examples.ts';
import { integer, isoDate, listEnvelope, okEnvelope, timestamp, uuidValue } from '../../http/responses.ts';
import { CURRENCIES, ITEM_TYPE_CODES } from '../tariffs/tariffs.model.ts';

const money = z.number().describe('In the currency, at most 2 decimals');
const itemType = z.enum(ITEM_TYPE_CODES);

const DEMO_INVOICE = {
  id: 1,
  account_id: EXAMPLE.accountId,
  building_block_id: 1,
  source: 'grid',
  supplier: 'City Power',
  invoice_number: 'CP-EXAMPLE-0001',
  issued_on: '2026-11-01',
  start: '2026-09-30T22:00:00.000Z',
  end: '2026-10-31T22:00:00.000Z',
  currency: 'ZAR',
  estimated: false,
  lines: [
    {
      description: 'Energy (peak)',
      item_type_code: 'TOU_PEAK_ENERGY',
      quantity: 2865.571,
      unit: 'kWh',
      amount: 9435.75,
    },
    { description: 'Service charge', item_type_code: 'SERVICE', quantity: 31, unit: 'day', amount: 101.37 },
    { description: 'Late payment fee', item_type_code: null, quantity: null, unit: null, amount: 50 },
  ],
  subtotal: 9587.12,
  tax: 1438.07,
  total: 11025.19,
  status: null,
  difference: null,
  created_at: '2026-11-23T08:00:00.000Z',
  updated_at: '2026-11-23T08:00:00.000Z',
};

const invoice = z
  .strictObject({
    id: integer,
    account_id: uuidValue,
    building_block_id: integer,
    source: z.enum(SOURCES),
    supplier: z.string(),
    invoice_number: z.string(),
    issued_on: isoDate,
    start: timestamp,
    end: timestamp,
    currency: z.enum(CURRENCIES),
    estimated: z.boolean(),
    lines: z.array(
      z.strictObject({
        description: z.string(),
        item_type_code: itemType.nullable(),
        quantity: z.number().nullable(),
        unit: z.string().nullable(),
        amount: money,
      }),
    ),
    subtotal: money,
    tax: money,
    total: money,
    status: z.enum(['ok', 'flagged']).nullable().describe("The latest check's status; null before the first"),
    difference: money.nullable().describe("The latest check's invoice total - computed total; null before the first"),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ examples: [DEMO_INVOICE] });

const { lines: DEMO_LINES, ...DEMO_LISTED } = DEMO_INVOICE;

/** An invoice in a list: its number of lines rather than the lines, which its own read answers. */
const invoiceListItem = invoice
  .omit({ lines: true })
  .extend({ line_count: integer.describe('How many lines the invoice has; GET /invoices/{id} answers them') })
  .meta({ examples: [{ ...DEMO_LISTED, line_count: DEMO_LINES.length }] });

const FLAG_CODES = [
  'TOTAL_VARIANCE',
  'LINE_VARIANCE',
  'UNMATCHED_LINE',
  'QUANTITY_MISMATCH',
  'PERIOD_OVERLAP',
  'PERIOD_GAP',
  'ESTIMATED',
  'INCOMPLETE_DATA',
  'NO_TARIFF',
] as const;

const check = z
  .strictObject({
    invoice_id: integer,
    computed: z.strictObject({
      total: money.describe("The source's computed bills over the period added up"),
      import_kwh: z.number(),
      volume_kl: z.number().optional().describe('source water only: the kL of the computed bills'),
      complete: z.boolean(),
      warnings: z.array(z.string()),
    }),
    invoice_total: money,
    difference: money.describe('invoice_total - computed.total'),
    lines: z.array(
      z.strictObject({
        item_type_code: itemType.nullable(),
        invoice_amount: money.nullable(),
        computed_amount: money.nullable(),
        difference: money.nullable().describe('invoice_amount - computed_amount; null when one is missing'),
        invoice_quantity: z.number().nullable(),
        computed_quantity: z.number().nullable(),
      }),
    ),
    flags: z.array(
      z.strictObject({
        code: z.enum(FLAG_CODES),
        severity: z
          .enum(['error', 'warning'])
          .describe(
            'error for TOTAL_VARIANCE, LINE_VARIANCE, UNMATCHED_LINE, QUANTITY_MISMATCH and NO_TARIFF; warning for the others',
          ),
        message: z
          .string()
          .describe(
            'In words, charges by their item type\'s name, money in the invoice\'s currency as "R 105 320,41" (the symbol R for ZAR, else the code; thousands grouped by spaces, a decimal comma, as the console writes rand)',
          ),
      }),
    ),
    status: z.enum(['ok', 'flagged']),
    tolerance_pct: z.number().describe('The tolerance the check applied, in percent of the computed amount'),
  })
  .meta({
    examples: [
      {
        invoice_id: 1,
        computed: { total: 10975.19, import_kwh: 16120.391, complete: true, warnings: [] },
        invoice_total: 11025.19,
        difference: 50,
        lines: [
          {
            item_type_code: 'TOU_PEAK_ENERGY',
            invoice_amount: 9435.75,
            computed_amount: 9435.75,
            difference: 0,
            invoice_quantity: 2865.571,
            computed_quantity: 2865.571,
          },
          {
            item_type_code: null,
            invoice_amount: 50,
            computed_amount: null,
            difference: null,
            invoice_quantity: null,
            computed_quantity: null,
          },
        ],
        flags: [
          {
            code: 'UNMATCHED_LINE',
            severity: 'error',
            message: 'A line without an item type: the invoice charges R 50,00, our bill has no such charge',
          },
        ],
        status: 'flagged',
        tolerance_pct: 1,
      },
    ],
  });

/** Our bill as an invoice's figures: what POST /invoices takes, but for who issued it, its number and day. */
const draft = invoice
  .omit({
    id: true,
    supplier: true,
    invoice_number: true,
    issued_on: true,
    status: true,
    difference: true,
    created_at: true,
    updated_at: true,
  })
  .meta({
    examples: [
      {
        account_id: DEMO_INVOICE.account_id,
        building_block_id: 1,
        source: 'grid',
        start: DEMO_INVOICE.start,
        end: DEMO_INVOICE.end,
        currency: 'ZAR',
        estimated: false,
        lines: [
          {
            description: 'Peak energy (time of use), summer',
            item_type_code: 'TOU_PEAK_ENERGY',
            quantity: 2865.571,
            unit: 'kWh',
            amount: 9435.75,
          },
          { description: 'Service charge', item_type_code: 'SERVICE', quantity: 31, unit: 'day', amount: 101.37 },
        ],
        subtotal: 9537.12,
        tax: 1430.57,
        total: 10967.69,
      },
    ],
  });

export const invoiceResponses = {
  draft: okEnvelope(draft, 'Our bill as an invoice to start from: nothing is stored'),
  list: listEnvelope(invoiceListItem, 'A page of invoices with their number of lines and latest check'),
  created: okEnvelope(invoice, 'The invoice recorded'),
  invoice: okEnvelope(invoice, 'The invoice'),
  check: okEnvelope(check, 'The invoice against the computed bill, line by line, with its flags'),
};
