import { Decimal } from 'decimal.js';
import type { AccessGuard } from '../../http/access-guard.ts';
import type { Admission } from '../../http/admission.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest } from '../../http/errors.ts';
import type { CostService } from '../cost/cost.service.ts';
import type { TariffAccess } from '../tariffs/tariff-access.ts';
import { isCatalogueAccount } from '../tariffs/tariffs.model.ts';
import { isElectricityMeter } from '../timeseries/meter-checks.ts';
import type { ComparisonQuery } from './tariff-comparison.schemas.ts';

export interface TariffComparisonDeps {
  guard: AccessGuard;
  admission: Admission;
  cost: Pick<CostService, 'sourceOfBlock' | 'priceWithTariffs'>;
  tariffs: Pick<TariffAccess, 'comparableTariffIds'>;
}

type PricedCandidates = Awaited<ReturnType<CostService['priceWithTariffs']>>;
type SourceCost = Awaited<ReturnType<CostService['sourceOfBlock']>>['cost'];

interface MonthTotal {
  month: string;
  total: number;
}

/** The monthly totals of bills, a month split over two bills (a tariff change inside it) added up. */
function monthTotals(bills: readonly { months: readonly MonthTotal[] }[]): MonthTotal[] {
  const totals = new Map<string, Decimal>();
  for (const month of bills.flatMap((b) => b.months)) {
    totals.set(month.month, (totals.get(month.month) ?? new Decimal(0)).plus(month.total));
  }
  return [...totals].map(([month, total]) => ({ month, total: total.toNumber() }));
}

/** The source's bills as the building cost prices them, as one figure with its months. */
function currentOf(source: SourceCost) {
  if (!source.priced) return { total: null, months: [], complete: false, warnings: [source.reason] };
  return {
    total: source.total,
    months: monthTotals(source.bills),
    complete: source.bills.every((b) => b.complete),
    warnings: [...new Set(source.bills.flatMap((b) => b.warnings))],
  };
}

/**
 * Why a tariff cannot price any readings, or null: an item with demand_periods on a tariff that is
 * not time-of-use (its periods come from a schedule only such a tariff has).
 */
function unpriceableReason(tariff: PricedCandidates[number]['tariff']): string | null {
  if (tariff.tariff_type === 'TIME_OF_USE') return null;
  const item = tariff.tariff_items.find((i) => (i.demand_periods?.length ?? 0) > 0);
  return item
    ? `Not priced: the ${item.item_type_code} item has demand_periods, which only a TIME_OF_USE tariff can apply`
    : null;
}

function candidateOf({ tariff, bill }: PricedCandidates[number], currentTotal: number | null) {
  const base = {
    tariff_id: tariff.id,
    name: tariff.name,
    catalogue: isCatalogueAccount(tariff.account_id),
    currency: tariff.currency,
  };
  const reason = unpriceableReason(tariff);
  if (reason) return { ...base, total: null, difference: null, months: [], complete: false, warnings: [reason] };
  const difference =
    currentTotal === null ? null : new Decimal(bill.total).minus(currentTotal).toDecimalPlaces(2).toNumber();
  return {
    ...base,
    total: bill.total,
    difference,
    months: bill.months.map(({ month, total }) => ({ month, total })),
    complete: bill.complete,
    warnings: bill.warnings,
  };
}

type Candidate = ReturnType<typeof candidateOf>;

/** By total (unpriced last), then by tariff id. */
function byTotal(a: Candidate, b: Candidate): number {
  if (a.total === null || b.total === null) {
    if (a.total !== b.total) return a.total === null ? 1 : -1;
  } else if (a.total !== b.total) return a.total - b.total;
  return a.tariff_id - b.tariff_id;
}

export function createTariffComparisonService({ guard, admission, cost, tariffs }: TariffComparisonDeps) {
  async function compare(auth: AuthContext, blockId: number, query: ComparisonQuery, handOver: () => Promise<void>) {
    const { account_id: accountId, source } = query;
    const [start, end] = [new Date(query.start), new Date(query.end)];
    const { meter, cost: sourceCost } = await cost.sourceOfBlock(auth, accountId, blockId, source, start, end);
    if (!meter) throw badRequest(`source: The ${source} source has no meter`);
    if (!isElectricityMeter(meter)) throw badRequest(`source: Meter ${meter.meter_sn} is not an electricity meter`);
    const current = currentOf(sourceCost);
    const currency = sourceCost.bills[0]?.currency ?? null;
    const ids = query.tariff_ids ?? (await tariffs.comparableTariffIds(accountId, currency));
    const priced = await cost.priceWithTariffs(auth, accountId, meter, ids, { start, end }, handOver);
    return {
      building_block_id: blockId,
      source,
      meter_sn: meter.meter_sn,
      start: start.toISOString(),
      end: end.toISOString(),
      currency,
      current,
      candidates: priced.map((candidate) => candidateOf(candidate, current.total)).sort(byTotal),
    };
  }

  return {
    /**
     * The source's current bill against each candidate tariff over the same readings (extensions
     * §12.2). Each candidate is priced in a step of its own: between them the slot goes to other
     * waiting work, and the work stops there once the request has ended (its client gone, its
     * deadline passed).
     */
    async compare(auth: AuthContext, blockId: number, query: ComparisonQuery) {
      await guard.require(auth, query.account_id, 'read');
      return admission.admit(auth, query.account_id, (step) => compare(auth, blockId, query, step));
    },
  };
}

export type TariffComparisonService = ReturnType<typeof createTariffComparisonService>;
