import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { SOURCES } from '../../db/energy-sources.ts';
import { accountQuery, bodyId, dateText, money, recordId, text, uuid } from '../../http/fields.ts';
import { listQuerySchema } from '../../http/list.ts';
import { periodFields, validPeriod } from '../../http/period.ts';
import { CURRENCIES, ITEM_TYPE_CODES } from '../tariffs/tariffs.model.ts';

/** At most this many lines an invoice (extensions §13.4), of descriptions of at most 200 characters. */
export const MAX_INVOICE_LINES = 200;

const line = z.strictObject({
  description: text(1, 200),
  item_type_code: z.enum(ITEM_TYPE_CODES).nullable().describe('The tariff item type the line charges; null: none'),
  quantity: z.number().min(-1e12).max(1e12).nullable().describe('The quantity charged (kWh for energy), or null'),
  unit: text(1, 20).nullable().describe('kWh, kvarh, kVA, day, month, ... or null'),
  amount: money,
});

const cents = (value: number) => new Decimal(value).toFixed(2);

/** The lines add up to subtotal, and subtotal + tax is total, to the cent. */
function addsUp(
  invoice: { lines: { amount: number }[]; subtotal: number; tax: number; total: number },
  ctx: z.RefinementCtx,
) {
  const lines = invoice.lines.reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
  if (cents(lines.toNumber()) !== cents(invoice.subtotal)) {
    ctx.addIssue({
      code: 'custom',
      path: ['subtotal'],
      message: `The lines add up to ${lines.toFixed(2)}, not ${cents(invoice.subtotal)}`,
    });
  }
  const total = new Decimal(invoice.subtotal).plus(invoice.tax);
  if (total.toFixed(2) !== cents(invoice.total)) {
    ctx.addIssue({
      code: 'custom',
      path: ['total'],
      message: `subtotal + tax is ${total.toFixed(2)}, not ${cents(invoice.total)}`,
    });
  }
}

const invoiceFields = z.strictObject({
  account_id: uuid,
  building_block_id: bodyId.describe('Building block of the same organization'),
  source: z
    .enum(SOURCES)
    .default('grid')
    .describe("The block's source invoiced: an energy source, or water (the water supply)"),
  supplier: text(1, 200).describe('Who issued the invoice (the utility or municipality)'),
  invoice_number: text(1, 100).describe("The supplier's number, unique per supplier in an organization"),
  issued_on: dateText('The day the invoice was issued'),
  ...periodFields,
  currency: z.enum(CURRENCIES),
  estimated: z.boolean().default(false).describe('The supplier estimated the reading'),
  lines: z.array(line).max(MAX_INVOICE_LINES),
  subtotal: money,
  tax: money,
  total: money,
});

export const createInvoiceBody = invoiceFields.superRefine((value, ctx) => {
  validPeriod(value, ctx);
  addsUp(value, ctx);
});
export type CreateInvoice = z.infer<typeof createInvoiceBody>;
/** An update replaces the whole invoice, under the same rules. */
export const updateInvoiceBody = createInvoiceBody;

export const INVOICE_SORT = {
  issued_on: 'i.issued_on',
  start: 'i.period_start',
  total: 'i.total',
  created_at: 'i.created_at',
  updated_at: 'i.updated_at',
  id: 'i.id',
} as const;

export const listInvoicesQuery = listQuerySchema(INVOICE_SORT).extend({
  ...accountQuery.shape,
  sortBy: z
    .enum(Object.keys(INVOICE_SORT) as [keyof typeof INVOICE_SORT])
    .default('start')
    .describe('Sort column (also accepted as sort_by); default start'),
  building_block_id: recordId.optional(),
  source: z.enum(SOURCES).optional(),
});
export type ListInvoicesQuery = z.infer<typeof listInvoicesQuery>;

export const checkQuery = accountQuery.extend({
  tolerance_pct: z
    .string()
    // The pattern holds the bound of 100, so that the API reference states it.
    .regex(
      /^(?:100(?:\.0{1,4})?|[0-9]{1,2}(?:\.[0-9]{1,4})?)$/,
      'Must be a number from 0 to 100 in plain decimal digits, at most 4 decimals',
    )
    .transform(Number)
    .default(1)
    .describe('Tolerance in percent of the computed amount, 0 to 100 (default 1); never under 1.00 of money'),
});
export type CheckQuery = z.infer<typeof checkQuery>;

export const draftQuery = z
  .object({
    account_id: uuid,
    building_block_id: recordId.describe('Building block of the same organization'),
    source: z.enum(SOURCES).default('grid').describe("The block's energy source invoiced"),
    ...periodFields,
  })
  .superRefine(validPeriod);
export type DraftQuery = z.infer<typeof draftQuery>;
