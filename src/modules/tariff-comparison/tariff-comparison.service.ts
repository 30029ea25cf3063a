import { Decimal } from 'decimal.js';
import type { AccessGuard } from '../../http/access-guard.ts';
import type { Admission } from '../../http/admission.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest } from '../../http/errors.ts';
import type { CostService } from '../cost/cost.service.ts';
import type { TariffAccess } from '../tariffs/tariffs.model.ts';
import { isCatalogueAccount } from '../tariffs/tariffs.model.ts';
import { isElectricityMeter } from '../timeseries/timeseries.model.ts';
import { ineligibility, type Supply } from './eligibility.ts';
import { partsThroughFamily } from './family-parts.ts';
import { recommendationOf } from './recommendation.ts';
import type { ComparisonQuery } from './tariff-comparison.schemas.ts';

export interface TariffComparisonDeps {
  guard: AccessGuard;
  admission: Admission;
  cost: Pick<CostService, 'sourceOfBlock' | 'priceParts' | 'highestHalfHourKva'>;
  tariffs: Pick<TariffAccess, 'comparableTariffIds' | 'usableTariff' | 'recordedTariff' | 'versionsOf'>;
}

type Priced = Awaited<ReturnType<CostService['priceParts']>>[number];
type Tariff = Priced['tariff'];
type SourceOfBlock = Awaited<ReturnType<CostService['sourceOfBlock']>>;
type Meter = NonNullable<SourceOfBlock['meter']>;

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

const uniqueWarnings = (bills: readonly { warnings: readonly string[] }[]) => [
  ...new Set(bills.flatMap((b) => b.warnings)),
];

/** The source's bills as the building cost prices them, as one figure with its months. */
function currentOf(source: SourceOfBlock['cost']) {
  if (!source.priced) return { total: null, months: [], complete: false, warnings: [source.reason] };
  return {
    total: source.total,
    months: monthTotals(source.bills),
    complete: source.bills.every((b) => b.complete),
    warnings: uniqueWarnings(source.bills),
  };
}

/**
 * Why a tariff cannot price any readings, or null: an item with demand_periods on a tariff that is
 * not time-of-use (its periods come from a schedule only such a tariff has).
 */
function unpriceableReason(tariff: Tariff): string | null {
  if (tariff.tariff_type === 'TIME_OF_USE') return null;
  const item = tariff.tariff_items.find((i) => (i.demand_periods?.length ?? 0) > 0);
  return item
    ? `Not priced: the ${item.item_type_code} item has demand_periods, which only a TIME_OF_USE tariff can apply`
    : null;
}

const PRICES_NO_ENERGY = "Not priced: the tariff prices none of the period's energy";

/** Imported energy was read, and no bill line prices any of it (a water tariff, a tariff without an energy item). */
function pricesNoEnergy(parts: readonly Priced[]): boolean {
  const imported = parts.some(({ bill }) => bill.import_kwh > 0);
  const pricesEnergy = parts.some(({ bill }) =>
    bill.lines.some((line) => line.unit === 'kWh' && line.item_type_code !== 'EXPORTED_ENERGY' && line.quantity > 0),
  );
  return imported && !pricesEnergy;
}

/** A candidate's fields besides its bill. */
function describe(tariff: Tariff, reasons: string[], nmdKva: number | null) {
  return {
    tariff_id: tariff.id,
    name: tariff.name,
    catalogue: isCatalogueAccount(tariff.account_id),
    currency: tariff.currency,
    family: tariff.family,
    eligible: reasons.length === 0,
    reasons,
    nmd_kva_used: nmdKva,
  };
}

/** A candidate priced through its family's versions: the parts' bills as one. */
function candidateOf(described: ReturnType<typeof describe>, parts: readonly Priced[], currentTotal: number | null) {
  const unpriced = (reason: string) => ({
    ...described,
    total: null,
    difference: null,
    months: [],
    complete: false,
    warnings: [reason],
  });
  const reason = parts.map(({ tariff }) => unpriceableReason(tariff)).find((r) => r !== null);
  if (reason) return unpriced(reason);
  if (pricesNoEnergy(parts)) return unpriced(PRICES_NO_ENERGY);
  const bills = parts.map(({ bill }) => bill);
  const total = bills.reduce((sum, bill) => sum.plus(bill.total), new Decimal(0));
  return {
    ...described,
    total: total.toNumber(),
    difference: currentTotal === null ? null : total.minus(currentTotal).toDecimalPlaces(2).toNumber(),
    months: monthTotals(bills),
    complete: bills.every((bill) => bill.complete),
    warnings: uniqueWarnings(bills),
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

/** Of eligible tariffs, one per family (the organization's own before the catalogue's), in the order given. */
function onePerFamily(tariffs: readonly Tariff[]): Tariff[] {
  const ownFirst = [...tariffs].sort(
    (a, b) => Number(isCatalogueAccount(a.account_id)) - Number(isCatalogueAccount(b.account_id)),
  );
  const families = new Set<string>();
  const kept = new Set<Tariff>();
  for (const tariff of ownFirst) {
    if (tariff.family !== null && families.has(tariff.family)) continue;
    if (tariff.family !== null) families.add(tariff.family);
    kept.add(tariff);
  }
  return tariffs.filter((tariff) => kept.has(tariff));
}

export function createTariffComparisonService({ guard, admission, cost, tariffs }: TariffComparisonDeps) {
  /**
   * The NMD the comparison uses: the meter's, else the query's what-if, else the highest half
   * hour of the 12 months before `end` rounded up to a whole kVA (said in warnings).
   */
  async function supplyNmd(meter: Meter, whatIf: number | undefined, end: Date) {
    if (meter.notified_max_demand_kva !== null) return { nmdKva: Number(meter.notified_max_demand_kva), warnings: [] };
    if (whatIf !== undefined) return { nmdKva: whatIf, warnings: [] };
    const yearBefore = new Date(end);
    yearBefore.setUTCFullYear(yearBefore.getUTCFullYear() - 1);
    const peak = await cost.highestHalfHourKva(meter, yearBefore, end);
    if (peak === null) return { nmdKva: null, warnings: ['NMD unknown: no readings in the 12 months before the end'] };
    const nmdKva = Math.ceil(Math.round(peak * 1000) / 1000);
    return { nmdKva, warnings: [`NMD estimated from the highest demand: ${nmdKva} kVA`] };
  }

  /** The named tariffs (403/404 in order), or the current DSO's eligible tariffs in force, one per family. */
  async function candidateTariffs(auth: AuthContext, query: ComparisonQuery, supply: Supply) {
    const { account_id: accountId } = query;
    const ids = query.tariff_ids ?? (await tariffs.comparableTariffIds(accountId, supply.currency, supply.dsoId));
    const resolved: Tariff[] = [];
    for (const id of ids) resolved.push(await tariffs.usableTariff(auth, id, accountId));
    if (query.tariff_ids) return resolved;
    return onePerFamily(resolved.filter((tariff) => ineligibility(tariff, supply).length === 0));
  }

  async function compare(auth: AuthContext, blockId: number, query: ComparisonQuery, handOver: () => Promise<void>) {
    const { account_id: accountId, source } = query;
    const [start, end] = [new Date(query.start), new Date(query.end)];
    const sourced = await cost.sourceOfBlock(auth, accountId, blockId, source, start, end);
    const { meter, cost: sourceCost } = sourced;
    if (!meter) throw badRequest(`source: The ${source} source has no meter`);
    if (!isElectricityMeter(meter)) throw badRequest(`source: Meter ${meter.meter_sn} is not an electricity meter`);
    const current = currentOf(sourceCost);
    const currency = sourceCost.bills[0]?.currency ?? null;
    const currentTariffId = sourceCost.bills.at(-1)?.tariff_id;
    const currentTariff =
      currentTariffId === undefined ? null : await tariffs.recordedTariff(auth, currentTariffId, accountId);
    const { nmdKva, warnings } = await supplyNmd(meter, query.nmd_kva, end);
    const supply: Supply = {
      customerClass: sourced.buildingType,
      nmdKva,
      dsoId: currentTariff?.dso_id ?? null,
      end,
      currency,
    };
    const candidates = await candidateTariffs(auth, query, supply);
    const versions = await tariffs.versionsOf(candidates);
    const partsOf = candidates.map((tariff, i) => partsThroughFamily(tariff, versions[i]!, start, end));
    const pricedMeter = meter.notified_max_demand_kva === null ? { ...meter, notified_max_demand_kva: nmdKva } : meter;
    const priced = await cost.priceParts(auth, accountId, pricedMeter, partsOf.flat(), handOver);
    const billsOf: Priced[][] = [];
    for (const parts of partsOf) billsOf.push(priced.splice(0, parts.length));
    const ranked = candidates
      .map((tariff, i) =>
        candidateOf(describe(tariff, ineligibility(tariff, supply), nmdKva), billsOf[i]!, current.total),
      )
      .sort(byTotal);
    return {
      building_block_id: blockId,
      source,
      meter_sn: meter.meter_sn,
      start: start.toISOString(),
      end: end.toISOString(),
      currency,
      current,
      ...recommendationOf(current, ranked),
      warnings,
      candidates: ranked,
    };
  }

  return {
    /**
     * The source's current bill against each candidate tariff over the same readings (extensions
     * §12.2, §13.1). Each candidate's bill is priced in a step of its own: between them the slot goes
     * to other waiting work, and the work stops there once the request has ended (its client gone,
     * its deadline passed).
     */
    async compare(auth: AuthContext, blockId: number, query: ComparisonQuery) {
      await guard.require(auth, query.account_id, 'read');
      return admission.admit(auth, query.account_id, (step) => compare(auth, blockId, query, step));
    },
  };
}

export type TariffComparisonService = ReturnType<typeof createTariffComparisonService>;
