import { ok, okList } from '../../http/envelope.ts';
import { EXAMPLE, EXAMPLE_MONTH, withExample, withParamExamples } from '../../http/examples.ts';
import { accountQuery, idParams } from '../../http/fields.ts';
import { failures, noContent } from '../../http/responses.ts';
import { ADMITTED_AS_WORK, LIST_PARAMETERS, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { invoiceResponses } from './invoices.responses.ts';
import { checkQuery, createInvoiceBody, draftQuery, listInvoicesQuery, updateInvoiceBody } from './invoices.schemas.ts';
import type { InvoicesService } from './invoices.service.ts';

const tags = ['Invoices'];
const base = '/api/v1/invoices';
const invoiceParams = withParamExamples(idParams, { id: 1 });
const NOT_FOUND = 'Invoice not found';
const CHECKS = recordChecks('invoice');
const NUMBER_TAKEN = 'An invoice with this supplier and invoice_number already exists in this organization';
const RULES =
  'At most 200 lines, each description at most 200 characters; amounts are money (at most 2 decimals, at most 9,999,999,999,999.99 in magnitude); the lines add up to subtotal and subtotal + tax = total, to the cent, else 400 naming subtotal or total; the period [start, end) is at most 366 days; the block must be one of the organization (400). The same supplier and invoice_number twice in an organization: 409.';

/** An invoice for the demo site's grid over the examples' month: lines that add up. */
const EXAMPLE_INVOICE = {
  account_id: EXAMPLE.accountId,
  building_block_id: 1,
  source: 'grid' as const,
  supplier: 'City Power',
  invoice_number: 'CP-EXAMPLE-0001',
  issued_on: EXAMPLE_MONTH.end.slice(0, 10),
  ...EXAMPLE_MONTH,
  currency: 'ZAR' as const,
  estimated: false,
  lines: [
    {
      description: 'Energy (peak)',
      item_type_code: 'TOU_PEAK_ENERGY' as const,
      quantity: 2865.571,
      unit: 'kWh',
      amount: 9435.75,
    },
    { description: 'Service charge', item_type_code: 'SERVICE' as const, quantity: 31, unit: 'day', amount: 101.37 },
    { description: 'Late payment fee', item_type_code: null, quantity: null, unit: null, amount: 50 },
  ],
  subtotal: 9587.12,
  tax: 1438.07,
  total: 11025.19,
};

export function registerInvoiceRoutes(app: App, invoices: InvoicesService): void {
  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List invoices',
        operationId: 'listInvoices',
        description: `The organization's invoices, filtered by building_block_id and source, each with line_count (the number of its lines: GET /invoices/{id} answers the lines) and its latest check's status and difference (null before the first check, and after a change of the invoice). ${LIST_PARAMETERS} query searches supplier and invoice_number; sortBy is issued_on, start (default), total, created_at, updated_at or id. ${ROLE_NEEDED.read}`,
        querystring: withParamExamples(listInvoicesQuery, { account_id: EXAMPLE.accountId }),
        response: { 200: invoiceResponses.list, ...failures({ 400: true, 403: true }) },
      },
    },
    async (req) => okList(await invoices.list(req.auth, req.query)),
  );
  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Record an invoice',
        operationId: 'createInvoice',
        description: `What the utility charged one energy source (default grid) of a building block for a period, line by line. ${RULES} ${ROLE_NEEDED.write}`,
        body: withExample(createInvoiceBody, EXAMPLE_INVOICE),
        response: {
          201: invoiceResponses.created,
          ...failures({ 400: 'total: subtotal + tax is 11025.19, not 11025.20', 403: true, 409: NUMBER_TAKEN }),
        },
      },
    },
    async (req, reply) => reply.code(201).send(ok(await invoices.create(req.auth, req.body))),
  );
  app.post(
    `${base}/draft`,
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        summary: 'Our bill as an invoice to start from',
        operationId: 'createInvoiceDraft',
        description: `The bill the service computes for the block's source over [start, end) (as the invoice check computes it: the building cost's bills of that source) as an invoice's figures: its lines (one per line of our bill, described in words, with the item type, quantity, unit and amount), subtotal, tax and total, which POST /invoices takes once supplier, invoice_number and issued_on are added and the figures edited to what the utility sent. Nothing is stored (200). A source without a meter or tariff: 400; a block without a dashboard config: 404. ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} ${recordChecks('building block')}`,
        querystring: withParamExamples(draftQuery, {
          account_id: EXAMPLE.accountId,
          building_block_id: 1,
          source: 'grid',
          ...EXAMPLE_MONTH,
        }),
        response: {
          200: invoiceResponses.draft,
          ...failures({
            400: 'grid: The source is not priced: No tariff configured',
            403: true,
            404: 'Dashboard config not found',
            429: true,
          }),
        },
      },
    },
    async (req) => ok(await invoices.draft(req.auth, req.query)),
  );
  app.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Get an invoice',
        operationId: 'getInvoice',
        description: `${ROLE_NEEDED.read} ${CHECKS}`,
        params: invoiceParams,
        querystring: withParamExamples(accountQuery, { account_id: EXAMPLE.accountId }),
        response: { 200: invoiceResponses.invoice, ...failures({ 400: true, 403: true, 404: NOT_FOUND }) },
      },
    },
    async (req) => ok(await invoices.get(req.auth, req.query.account_id, req.params.id)),
  );
  app.get(
    `${base}/:id/check`,
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        summary: 'Check an invoice against the computed bill',
        operationId: 'getInvoiceCheck',
        description: `Compares the invoice with the bill the service computes for the same block, source and period (the building cost's bills of that source: tariff history, pending transitions). Lines are matched by item_type_code (amounts and quantities of several lines or months added up); invoice lines without a code are listed on their own with item_type_code null. Flags: TOTAL_VARIANCE (|difference| > max(tolerance_pct % of the computed total, 1.00)), LINE_VARIANCE (a matched line beyond the same tolerance of its computed amount), UNMATCHED_LINE (a non-zero money line on one side only), QUANTITY_MISMATCH (a kWh line's quantity off by more than tolerance_pct %), PERIOD_OVERLAP (another invoice of the block's source overlaps the period), PERIOD_GAP (the source's latest invoice ending at or before the start ends before it), ESTIMATED, INCOMPLETE_DATA (the computed bill is not complete, or part of the period has no tariff), NO_TARIFF (no part of the period is priced). Each flag has its severity (error for TOTAL_VARIANCE, LINE_VARIANCE, UNMATCHED_LINE, QUANTITY_MISMATCH and NO_TARIFF; warning for the others) and a message in words with money in the invoice's currency (\`R 105 320,41\`: thousands grouped by spaces, a decimal comma). The answer states the tolerance_pct applied. status is ok without a flag, else flagged; the outcome is kept as the invoice's latest check. ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} ${CHECKS}`,
        params: invoiceParams,
        querystring: withParamExamples(checkQuery, { account_id: EXAMPLE.accountId, tolerance_pct: '1' }),
        response: {
          200: invoiceResponses.check,
          ...failures({ 400: true, 403: true, 404: NOT_FOUND, 429: true }),
        },
      },
    },
    async (req) => ok(await invoices.check(req.auth, req.params.id, req.query)),
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Replace an invoice',
        operationId: 'replaceInvoice',
        description: `Replaces the whole invoice (every field as on create); its latest check is forgotten. ${RULES} ${ROLE_NEEDED.write} ${CHECKS}`,
        params: invoiceParams,
        body: withExample(updateInvoiceBody, {
          ...EXAMPLE_INVOICE,
          invoice_number: 'CP-EXAMPLE-0002',
          estimated: true,
        }),
        response: {
          200: invoiceResponses.invoice,
          ...failures({
            400: 'subtotal: The lines add up to 9587.12, not 9587.00',
            403: true,
            404: NOT_FOUND,
            409: NUMBER_TAKEN,
          }),
        },
      },
    },
    async (req) => ok(await invoices.replace(req.auth, req.params.id, req.body)),
  );
  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete an invoice',
        operationId: 'deleteInvoice',
        description: `${ROLE_NEEDED.write} ${CHECKS}`,
        params: invoiceParams,
        querystring: withParamExamples(accountQuery, { account_id: EXAMPLE.accountId }),
        response: { 204: noContent, ...failures({ 400: true, 403: true, 404: NOT_FOUND }) },
      },
    },
    async (req, reply) => {
      await invoices.remove(req.auth, req.query.account_id, req.params.id);
      return reply.code(204).send();
    },
  );
}
