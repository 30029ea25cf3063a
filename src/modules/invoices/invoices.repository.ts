import { type ListParams, listPage } from '../../db/list-page.ts';
import { SqlParams } from '../../db/sql-params.ts';
import type { Executor } from '../../db/types.ts';
import { INVOICE_SORT } from './invoices.schemas.ts';

export interface InvoiceLine {
  description: string;
  item_type_code: string | null;
  quantity: number | null;
  unit: string | null;
  amount: number;
}

/** An invoice's own fields, as written (its period as the client sent it). */
interface InvoiceValues {
  building_block_id: number;
  source: string;
  supplier: string;
  invoice_number: string;
  issued_on: string;
  start: string;
  end: string;
  currency: string;
  estimated: boolean;
  lines: InvoiceLine[];
  subtotal: number;
  tax: number;
  total: number;
}

export interface Invoice extends Omit<InvoiceValues, 'start' | 'end'> {
  id: number;
  account_id: string;
  start: Date;
  end: Date;
  /** The latest check's outcome, null before the first (and after a change of the invoice). */
  status: 'ok' | 'flagged' | null;
  difference: number | null;
  created_at: Date;
  updated_at: Date;
}

/** An invoice in a list: its number of lines rather than the lines (extensions §13.4). */
export interface InvoiceListItem extends Omit<Invoice, 'lines'> {
  line_count: number;
}

const columns = (lines: string) => `i.id, i.account_id, i.building_block_id, i.source, i.supplier, i.invoice_number,
  i.issued_on, i.period_start AS start, i.period_end AS "end", i.currency, i.estimated, ${lines}, i.subtotal, i.tax,
  i.total, i.check_status AS status, i.check_difference AS difference, i.created_at, i.updated_at`;
const COLUMNS = columns('i.lines');
const LIST_COLUMNS = columns('jsonb_array_length(i.lines) AS line_count');

/** The values in the order of the columns below, from $2 ($1 is the organization or the id). */
const valueList = (v: InvoiceValues) => [
  v.building_block_id,
  v.source,
  v.supplier,
  v.invoice_number,
  v.issued_on,
  v.start,
  v.end,
  v.currency,
  v.estimated,
  JSON.stringify(v.lines),
  v.subtotal,
  v.tax,
  v.total,
];

export const invoicesRepository = {
  /** The tariff item types' names by code, as flags and drafts write charges in words. */
  async itemTypeNames(db: Executor) {
    const rows = await db.query<{ code: string; display_name: string }>(
      'SELECT code, display_name FROM tariff_item_types',
    );
    return new Map(rows.map((row) => [row.code, row.display_name]));
  },

  async find(db: Executor, id: number) {
    const [row] = await db.query<Invoice>(`SELECT ${COLUMNS} FROM invoices i WHERE i.id = $1`, [id]);
    return row;
  },

  list(db: Executor, accountId: string, filters: { building_block_id?: number; source?: string }, list: ListParams) {
    const params = new SqlParams();
    const where = [`i.account_id = ${params.add(accountId)}`];
    if (filters.building_block_id !== undefined)
      where.push(`i.building_block_id = ${params.add(filters.building_block_id)}`);
    if (filters.source !== undefined) where.push(`i.source = ${params.add(filters.source)}`);
    return listPage<InvoiceListItem>(
      db,
      {
        select: LIST_COLUMNS,
        from: 'invoices i',
        where,
        params,
        search: { columns: ['i.supplier', 'i.invoice_number'] },
        sortColumns: INVOICE_SORT,
        tiebreak: 'i.id',
      },
      list,
    );
  },

  async insert(db: Executor, accountId: string, values: InvoiceValues) {
    const [row] = await db.query<Invoice>(
      `INSERT INTO invoices AS i (account_id, building_block_id, source, supplier, invoice_number, issued_on,
         period_start, period_end, currency, estimated, lines, subtotal, tax, total)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14) RETURNING ${COLUMNS}`,
      [accountId, ...valueList(values)],
    );
    return row!;
  },

  /** Replaces the whole invoice (its latest check goes: it was of the former content); undefined when it is gone. */
  async replace(db: Executor, accountId: string, id: number, values: InvoiceValues) {
    const [row] = await db.query<Invoice>(
      `UPDATE invoices i SET building_block_id = $3, source = $4, supplier = $5, invoice_number = $6, issued_on = $7,
         period_start = $8, period_end = $9, currency = $10, estimated = $11, lines = $12::jsonb, subtotal = $13,
         tax = $14, total = $15, check_status = NULL, check_difference = NULL, checked_at = NULL, updated_at = now()
       WHERE i.id = $1 AND i.account_id = $2 RETURNING ${COLUMNS}`,
      [id, accountId, ...valueList(values)],
    );
    return row;
  },

  async delete(db: Executor, accountId: string, id: number) {
    const rows = await db.query('DELETE FROM invoices WHERE id = $1 AND account_id = $2 RETURNING id', [id, accountId]);
    return rows.length > 0;
  },

  /** The other invoices of the block's source whose periods overlap [start, end), and the latest that ends at or before start. */
  async neighbours(db: Executor, invoice: Invoice) {
    const same = [invoice.account_id, invoice.building_block_id, invoice.source, invoice.id];
    const [overlapping, previous] = await Promise.all([
      db.query<{ id: number; invoice_number: string }>(
        `SELECT id, invoice_number FROM invoices
         WHERE account_id = $1 AND building_block_id = $2 AND source = $3 AND id <> $4
           AND period_start < $6 AND period_end > $5 ORDER BY period_start, id`,
        [...same, invoice.start, invoice.end],
      ),
      db.query<{ id: number; invoice_number: string; end: Date }>(
        `SELECT id, invoice_number, period_end AS "end" FROM invoices
         WHERE account_id = $1 AND building_block_id = $2 AND source = $3 AND id <> $4 AND period_end <= $5
         ORDER BY period_end DESC, id DESC LIMIT 1`,
        [...same, invoice.start],
      ),
    ]);
    return { overlapping, previous: previous[0] };
  },

  /**
   * Keeps a check's outcome, unless the invoice changed since the version checked; an outcome equal
   * to the one kept writes nothing (a check asked for again is a read).
   */
  async recordCheck(db: Executor, invoice: Invoice, status: 'ok' | 'flagged', difference: number) {
    if (invoice.status === status && invoice.difference === difference) return;
    await db.query(
      `UPDATE invoices SET check_status = $3, check_difference = $4, checked_at = now()
       WHERE id = $1 AND account_id = $5 AND date_trunc('milliseconds', updated_at) = $2`,
      [invoice.id, invoice.updated_at, status, difference, invoice.account_id],
    );
  },
};
