let numbers = 0;

/**
 * A body of POST /invoices: an invoice of City Power for the block, issued 2025-07-01 in ZAR, with
 * a number of its own; `fields` (its period, lines and figures) complete it or replace any of these.
 */
export function invoiceBody<Fields extends Record<string, unknown>>(
  accountId: string,
  blockId: number,
  fields: Fields,
) {
  numbers += 1;
  return {
    account_id: accountId,
    building_block_id: blockId,
    supplier: 'City Power',
    invoice_number: `INV-${numbers}`,
    issued_on: '2025-07-01',
    currency: 'ZAR',
    ...fields,
  };
}
