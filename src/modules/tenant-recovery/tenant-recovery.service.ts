import { Decimal } from 'decimal.js';
import type { Database } from '../../db/types.ts';
import type { AccessGuard } from '../../http/access-guard.ts';
import type { Admission } from '../../http/admission.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { CostService } from '../cost/cost.service.ts';
import { statementsCsv } from './recovery-statements.ts';
import { tenantRecoveryRepository as repo } from './tenant-recovery.repository.ts';
import type { RecoveryQuery, RecoverySource, StatementsQuery } from './tenant-recovery.schemas.ts';

export interface TenantRecoveryDeps {
  db: Database;
  guard: AccessGuard;
  admission: Admission;
  cost: Pick<CostService, 'sourceOfBlock' | 'priceParts'>;
}

type SourceOfBlock = Awaited<ReturnType<CostService['sourceOfBlock']>>;
type SupplyCost = SourceOfBlock['cost'];
type TenantMeter = NonNullable<SourceOfBlock['meter']>;

/** A recovery's query; a statement's names one tenant. */
type RecoveryOptions = RecoveryQuery & { tenant_id?: number };

/** A tenant's charge above its reference by more than this share is over-recovered (extensions §13.3). */
const OVER_RECOVERY_ABOVE = new Decimal('1.01');

const sum = (values: readonly (number | string)[]) =>
  values.reduce<Decimal>((total, value) => total.plus(value), new Decimal(0));

/** What a source's quantities are counted in, and the meter it names in a refusal. */
const UNITS: Record<RecoverySource, { unit: 'kWh' | 'kL'; meter: string }> = {
  grid: { unit: 'kWh', meter: 'grid meter' },
  water: { unit: 'kL', meter: 'water supply meter' },
};

/** The quantity (imported kWh, or kL of water) and money of a priced source: its bills added up. */
function billed(supply: SupplyCost, source: RecoverySource) {
  const quantity = (b: SupplyCost['bills'][number]) => (source === 'water' ? (b.volume_kl ?? 0) : b.import_kwh);
  return { quantity: sum(supply.bills.map(quantity)), total: sum(supply.bills.map((b) => b.total)) };
}

/** A tenant's bill: its bills' lines one after the other, their subtotals, taxes and totals added up. */
function statement(supply: SupplyCost) {
  return {
    lines: supply.bills.flatMap((b) => b.lines),
    subtotal: sum(supply.bills.map((b) => b.subtotal)),
    tax: sum(supply.bills.map((b) => b.tax)),
    total: sum(supply.bills.map((b) => b.total)),
  };
}

/** total - reference when total is above the reference by more than 1 %, else 0. */
function overRecovery(total: Decimal, reference: Decimal): number {
  return total.greaterThan(reference.times(OVER_RECOVERY_ABOVE)) ? total.minus(reference).toNumber() : 0;
}

export function createTenantRecoveryService({ db, guard, admission, cost }: TenantRecoveryDeps) {
  /** The tenant's meter's readings of the period, and its imported kWh (or kL) to 3 decimals as a bill counts them. */
  async function readingsOf(accountId: string, meter: TenantMeter | undefined, start: Date, end: Date) {
    const summary = meter ? await repo.readingsSummary(db, accountId, meter.id, start, end) : undefined;
    return {
      readings: {
        first_ts: summary?.first_ts?.toISOString() ?? null,
        last_ts: summary?.last_ts?.toISOString() ?? null,
        count: summary?.count ?? 0,
      },
      quantity: new Decimal(summary?.import_uwh ?? 0).div(1e9).toDecimalPlaces(3),
    };
  }

  /** The tenant's readings priced on the reference tariff over the period. */
  async function referenceTotal(
    auth: AuthContext,
    accountId: string,
    meter: TenantMeter | undefined,
    tariffId: number,
    period: { start: Date; end: Date },
    handOver: () => Promise<void>,
  ) {
    if (!meter) return new Decimal(0);
    const [priced] = await cost.priceParts(auth, accountId, meter, [{ tariffId, ...period }], handOver);
    return new Decimal(priced!.bill.total);
  }

  async function tenantOf(
    auth: AuthContext,
    query: RecoveryOptions,
    block: { id: number; name: string },
    currency: string,
    period: { start: Date; end: Date },
    handOver: () => Promise<void>,
  ) {
    const accountId = query.account_id;
    const { start, end } = period;
    const { meter, cost: own } = await cost.sourceOfBlock(auth, accountId, block.id, query.source, start, end);
    const metered = await readingsOf(accountId, meter, start, end);
    const other = own.bills.find((b) => b.currency !== currency);
    const reason = !own.priced ? own.reason : other ? `Billed in ${other.currency}, the supply in ${currency}` : null;
    const bill = reason === null ? statement(own) : null;
    const quantity = bill ? billed(own, query.source).quantity : metered.quantity;
    const referenceId = query.reference_tariff_id;
    const reference =
      referenceId === undefined ? null : await referenceTotal(auth, accountId, meter, referenceId, period, handOver);
    return {
      building_block_id: block.id,
      name: block.name,
      meter_sn: own.meter_sn,
      import_kwh: quantity.toNumber(),
      readings: metered.readings,
      lines: bill?.lines ?? [],
      subtotal: bill?.subtotal.toNumber() ?? null,
      tax: bill?.tax.toNumber() ?? null,
      total: bill?.total.toNumber() ?? null,
      rate_per_kwh: bill && !quantity.isZero() ? bill.subtotal.div(quantity).toDecimalPlaces(4).toNumber() : null,
      reference_total: reference?.toNumber() ?? null,
      over_recovery: reference === null ? null : bill ? overRecovery(bill.total, reference) : 0,
      priced: bill !== null,
      reason,
    };
  }

  async function recovery(auth: AuthContext, blockId: number, query: RecoveryOptions, handOver: () => Promise<void>) {
    const accountId = query.account_id;
    const [start, end] = [new Date(query.start), new Date(query.end)];
    const source = query.source;
    const { meter, cost: supplyCost } = await cost.sourceOfBlock(auth, accountId, blockId, source, start, end);
    if (!meter) throw badRequest(`${source}: The block has no ${UNITS[source].meter}`);
    if (!supplyCost.priced) throw badRequest(`${source}: The supply is not priced: ${supplyCost.reason}`);
    const currency = supplyCost.bills[0]!.currency;
    const supply = billed(supplyCost, source);
    const tenantId = query.tenant_id;
    const blocks = (await repo.tenantBlocks(db, accountId, blockId, source)).filter(
      (block) => tenantId === undefined || block.id === tenantId,
    );
    if (blocks.length === 0 && tenantId !== undefined) throw notFound('Tenant');
    // One tenant after the other: a tenant's cold year is its months of rollups read from the
    // database, and four tenants' rows arriving at once were parsed on the event loop in pieces of
    // 25-200 ms while other organizations' requests waited (measured in the history of
    // docs/PERFORMANCE.md). Warm, a tenant is one turn of pricing either way. Each tenant is a step
    // of its own: between tenants the slot goes to waiting work.
    const tenants = [];
    for (const block of blocks) {
      await handOver();
      tenants.push(await tenantOf(auth, query, block, currency, { start, end }, handOver));
    }
    const priced = tenants.filter((tenant) => tenant.priced);
    const recovered = {
      import_kwh: sum(priced.map((tenant) => tenant.import_kwh)),
      total: sum(priced.map((tenant) => tenant.total!)),
    };
    const unrecoveredKwh = supply.quantity.minus(recovered.import_kwh);
    const unbilledKwh = sum(tenants.filter((tenant) => !tenant.priced).map((tenant) => tenant.import_kwh));
    return {
      building_block_id: blockId,
      start: start.toISOString(),
      end: end.toISOString(),
      source,
      unit: UNITS[source].unit,
      currency,
      reference_tariff_id: query.reference_tariff_id ?? null,
      supply: { meter_sn: meter.meter_sn, import_kwh: supply.quantity.toNumber(), total: supply.total.toNumber() },
      tenants,
      recovered: { import_kwh: recovered.import_kwh.toNumber(), total: recovered.total.toNumber() },
      unrecovered: {
        import_kwh: unrecoveredKwh.toNumber(),
        unbilled_kwh: unbilledKwh.toNumber(),
        common_kwh: unrecoveredKwh.minus(unbilledKwh).toNumber(),
        total: supply.total.minus(recovered.total).toNumber(),
        share_pct: supply.quantity.isZero()
          ? null
          : unrecoveredKwh.div(supply.quantity).times(100).toDecimalPlaces(2).toNumber(),
      },
    };
  }

  return {
    /** The landlord's grid or water supply against what its tenants' own meters of it bill (extensions §12.4, §13.3, §13.6). */
    async recovery(auth: AuthContext, blockId: number, query: RecoveryQuery) {
      await guard.require(auth, query.account_id, 'read');
      return admission.admit(auth, query.account_id, (step) => recovery(auth, blockId, query, step));
    },

    /** The tenants' statements of the recovery as CSV, or one tenant's (extensions §13.3). */
    async statements(auth: AuthContext, blockId: number, query: StatementsQuery) {
      await guard.require(auth, query.account_id, 'read');
      const answer = await admission.admit(auth, query.account_id, (step) => recovery(auth, blockId, query, step));
      return statementsCsv(answer, answer.tenants);
    },
  };
}

export type TenantRecoveryService = ReturnType<typeof createTenantRecoveryService>;
