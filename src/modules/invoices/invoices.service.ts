import { Decimal } from 'decimal.js';
import type { Source } from '../../db/energy-sources.ts';
import type { Database, Executor } from '../../db/types.ts';
import { type Access, type AccessGuard, assertOwned } from '../../http/access-guard.ts';
import type { Admission } from '../../http/admission.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { conflictOnDuplicate } from '../../http/database-conflicts.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { assertReferencesExist } from '../../http/references.ts';
import type { BuildingBlocksService } from '../building-blocks/building-blocks.service.ts';
import type { CostService } from '../cost/cost.service.ts';
import { type ComputedBill, invoiceFlags, matchLines } from './invoice-check.ts';
import { type Invoice, invoicesRepository as repo } from './invoices.repository.ts';
import type { CheckQuery, CreateInvoice, DraftQuery, ListInvoicesQuery } from './invoices.schemas.ts';

export interface InvoicesDeps {
  db: Database;
  guard: AccessGuard;
  /** A check prices the period: it runs under the organization's admission. */
  admission: Admission;
  blocks: Pick<BuildingBlocksService, 'lockReferenced'>;
  cost: Pick<CostService, 'sourceOfBlock'>;
}

const NUMBER_TAKEN = 'An invoice with this supplier and invoice_number already exists in this organization';

type SourceCost = Awaited<ReturnType<CostService['sourceOfBlock']>>['cost'];

/** The source's bills over the invoice's period as one computed bill. */
function computedBill(source: SourceCost, invoice: Invoice): ComputedBill {
  const bills = source.bills;
  const covered = bills.reduce((ms, b) => ms + (Date.parse(b.end) - Date.parse(b.start)), 0);
  const whole = covered === invoice.end.getTime() - invoice.start.getTime();
  const warnings = [...new Set(bills.flatMap((b) => b.warnings))];
  if (!source.priced) warnings.push(source.reason);
  else if (!whole) warnings.push('Part of the period has no tariff');
  return {
    priced: source.priced,
    total: bills.reduce((sum, b) => sum.plus(b.total), new Decimal(0)).toNumber(),
    import_kwh: bills.reduce((sum, b) => sum.plus(b.import_kwh), new Decimal(0)).toNumber(),
    ...(source.source === 'water'
      ? { volume_kl: bills.reduce((sum, b) => sum.plus(b.volume_kl ?? 0), new Decimal(0)).toNumber() }
      : {}),
    complete: source.priced && whole && bills.every((b) => b.complete),
    warnings,
    lines: bills.flatMap((b) => b.lines),
  };
}

/** A bill line in words: its item type's name, its season unless all year, its block: "Active energy, summer". */
function lineDescription(
  line: { item_type_code: string; season: string; block_index: number | null },
  names: ReadonlyMap<string, string>,
) {
  const parts = [names.get(line.item_type_code) ?? line.item_type_code];
  if (line.season !== 'ALL_YEAR') parts.push(line.season.toLowerCase());
  if (line.block_index !== null) parts.push(`block ${line.block_index}`);
  return parts.join(', ');
}

export function createInvoicesService({ db, guard, admission, blocks, cost }: InvoicesDeps) {
  async function owned(auth: AuthContext, accountId: string, id: number, access: Access) {
    await guard.require(auth, accountId, access);
    return assertOwned(await repo.find(db, id), accountId, 'Invoice');
  }

  /** The block an invoice names must be a block of its organization (400 otherwise), locked until the write commits. */
  const assertBlock = (tx: Executor, accountId: string, blockId: number) =>
    assertReferencesExist(tx, accountId, [{ kind: 'Building block', path: ['building_block_id'], id: blockId }], {
      'Building block': blocks.lockReferenced,
    });

  async function check(auth: AuthContext, invoice: Invoice, tolerancePct: number) {
    const [{ cost: source }, neighbours] = await Promise.all([
      cost.sourceOfBlock(
        auth,
        invoice.account_id,
        invoice.building_block_id,
        invoice.source as Source,
        invoice.start,
        invoice.end,
        {
          configRequired: false,
        },
      ),
      repo.neighbours(db, invoice),
    ]);
    const computed = computedBill(source, invoice);
    const lines = matchLines(invoice, computed);
    const names = await repo.itemTypeNames(db);
    const flags = invoiceFlags(invoice, computed, lines, neighbours, { tolerancePct, names });
    const difference = new Decimal(invoice.total).minus(computed.total).toDecimalPlaces(2).toNumber();
    const status = flags.length === 0 ? ('ok' as const) : ('flagged' as const);
    await repo.recordCheck(db, invoice, status, difference);
    const { priced: _priced, lines: _lines, ...figures } = computed;
    return {
      invoice_id: invoice.id,
      computed: figures,
      invoice_total: invoice.total,
      difference,
      lines,
      flags,
      status,
      tolerance_pct: tolerancePct,
    };
  }

  /** Our bill of the block's source over the period as an invoice's figures, to be edited to the utility's. */
  async function draft(auth: AuthContext, query: DraftQuery) {
    const [start, end] = [new Date(query.start), new Date(query.end)];
    const { account_id: accountId, building_block_id: blockId, source } = query;
    const { cost: computed } = await cost.sourceOfBlock(auth, accountId, blockId, source, start, end);
    if (!computed.priced) throw badRequest(`${source}: The source is not priced: ${computed.reason}`);
    const names = await repo.itemTypeNames(db);
    const sum = (values: number[]) => values.reduce((total, value) => total.plus(value), new Decimal(0)).toNumber();
    const bills = computed.bills;
    return {
      account_id: accountId,
      building_block_id: blockId,
      source,
      start: start.toISOString(),
      end: end.toISOString(),
      currency: bills[0]!.currency,
      estimated: false,
      lines: bills.flatMap((b) =>
        b.lines.map((line) => ({
          description: lineDescription(line, names),
          item_type_code: line.item_type_code,
          quantity: line.quantity,
          unit: line.unit,
          amount: line.amount,
        })),
      ),
      subtotal: sum(bills.map((b) => b.subtotal)),
      tax: sum(bills.map((b) => b.tax)),
      total: sum(bills.map((b) => b.total)),
    };
  }

  return {
    async list(auth: AuthContext, query: ListInvoicesQuery) {
      const { account_id: accountId, building_block_id, source, ...list } = query;
      await guard.require(auth, accountId, 'read');
      return repo.list(db, accountId, { building_block_id, source }, list);
    },

    async create(auth: AuthContext, body: CreateInvoice) {
      const { account_id: accountId, ...values } = body;
      await guard.require(auth, accountId, 'write');
      return guard.transaction(auth, accountId, 'write', async (tx) => {
        await assertBlock(tx, accountId, values.building_block_id);
        return conflictOnDuplicate(repo.insert(tx, accountId, values), NUMBER_TAKEN);
      });
    },

    get: (auth: AuthContext, accountId: string, id: number) => owned(auth, accountId, id, 'read'),

    async replace(auth: AuthContext, id: number, body: CreateInvoice) {
      const { account_id: accountId, ...values } = body;
      await owned(auth, accountId, id, 'write');
      return guard.transaction(auth, accountId, 'write', async (tx) => {
        await assertBlock(tx, accountId, values.building_block_id);
        const updated = await conflictOnDuplicate(repo.replace(tx, accountId, id, values), NUMBER_TAKEN);
        if (!updated) throw notFound('Invoice');
        return updated;
      });
    },

    async remove(auth: AuthContext, accountId: string, id: number) {
      await owned(auth, accountId, id, 'write');
      const deleted = await guard.transaction(auth, accountId, 'write', (tx) => repo.delete(tx, accountId, id));
      if (!deleted) throw notFound('Invoice');
    },

    /** Our bill as an invoice to start from (extensions §13.4): nothing stored. */
    async draft(auth: AuthContext, query: DraftQuery) {
      await guard.require(auth, query.account_id, 'read');
      return admission.admit(auth, query.account_id, () => draft(auth, query));
    },

    /** The invoice against the bill the service computes for its source and period (extensions §12.3). */
    async check(auth: AuthContext, id: number, query: CheckQuery) {
      const invoice = await owned(auth, query.account_id, id, 'read');
      return admission.admit(auth, query.account_id, () => check(auth, invoice, query.tolerance_pct));
    },
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
