import { Decimal } from 'decimal.js';
import { SOURCES } from '../../db/energy-sources.ts';
import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Database } from '../../db/types.ts';
import { type AccessGuard, assertOwned } from '../../http/access-guard.ts';
import type { Admission } from '../../http/admission.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { TariffAccess } from '../tariffs/tariff-access.ts';
import { touScheduleId } from '../tariffs/tariff-rules.ts';
import { isElectricityMeter } from '../timeseries/meter-checks.ts';
import { type CostMeterRow, costRepository as repo } from './cost.repository.ts';
import type { BuildingCostQuery, TariffCostQuery } from './cost.schemas.ts';
import {
  type BillingContext,
  demandFromRollups,
  priceHourly,
  priceReadings,
  utilisationWindowStart,
} from './engine/index.ts';
import { assertExactBill, assertExactSum } from './exact-money.ts';
import { createPlanCache } from './plan-cache.ts';
import { type PendingTransition, type TariffRecord, tariffSegments } from './tariff-segments.ts';

const notElectricity = (meter: CostMeterRow) => `Meter ${meter.meter_sn} is not an electricity meter`;

const NO_TARIFF = 'No tariff configured';

const periodName = (start: Date, end: Date) => `period ${start.toISOString()} to ${end.toISOString()}`;

/** A sum of bills' totals, refused when it would not be exact (exact-money.ts). */
function exactTotal(totals: readonly number[], start: Date, end: Date): Decimal {
  const total = totals.reduce((sum, value) => sum.plus(value), new Decimal(0));
  assertExactSum(total, periodName(start, end));
  return total;
}

function unpricedReason(meterId: number | null, tariffId: number | null): string {
  if (meterId === null && tariffId === null) return 'No meter and no tariff configured';
  return meterId === null ? 'No meter configured' : NO_TARIFF;
}

type PricedTariff = Awaited<ReturnType<TariffAccess['usableTariff']>>;

export interface CostDeps {
  db: Database;
  /** What pricing needs of a tariff (items, calendar) is read once and kept until the tariff changes. */
  cache: ReadCache;
  guard: AccessGuard;
  tariffAccess: Pick<TariffAccess, 'usableTariff' | 'recordedTariff'>;
  /** Pricing is expensive: it runs under the admission of the caller and the organization addressed (account_id), after the access checks. */
  admission: Admission;
}

export function createCostService({ db, cache, guard, tariffAccess, admission }: CostDeps) {
  const planFor = createPlanCache();

  /**
   * The tariff's items as the engine takes them and its calendar (the reference data it names does
   * not change). Built on the tariff row at hand (its tax rate, type, dates), so kept only while that
   * row is still the cached one: a pricing built on a row older than a write is never kept.
   */
  function pricingOf(tariff: PricedTariff) {
    return cache.get(cacheKeys.tariffPricing(tariff.id), async () => {
      const [pricing, calendar] = await Promise.all([
        repo.pricingTariff(db, tariff),
        repo.calendar(db, tariff, touScheduleId(tariff)),
      ]);
      return { pricing, calendar };
    }, [tariff]);
  }

  /** The bill of one meter over [start, end) with one tariff of the organization or the catalogue. */
  async function bill(tariff: PricedTariff, meter: CostMeterRow, start: Date, end: Date) {
    const { pricing, calendar } = await pricingOf(tariff);
    const context: BillingContext = {
      tariff: pricing,
      calendar,
      start,
      end,
      intervalMinutes: meter.interval_minutes,
      notifiedMaxDemandKva: meter.notified_max_demand_kva,
    };
    const { tariff_id, ...priced } = await price(meter, context);
    assertExactBill(priced, periodName(start, end));
    return { tariff_id, meter_sn: meter.meter_sn, start: start.toISOString(), end: end.toISOString(), ...priced };
  }

  type Bill = Awaited<ReturnType<typeof bill>>;

  /** From the hourly rollups of its whole hours where they give the exact bill (nearly always), else from the readings. */
  async function price(meter: CostMeterRow, context: BillingContext) {
    const { start, end } = context;
    const plan = planFor(context);
    if (plan) {
      // The readings of the partial hours at the edges, when the period has any.
      const edge = (from: Date, to: Date) =>
        from < to ? repo.readings(db, meter.account_id, meter.id, from, to) : Promise.resolve([]);
      const [aggregates, before, after, halfHours] = await Promise.all([
        repo.hourlyAggregates(db, meter.account_id, meter.id, plan),
        edge(start, plan.hoursStart),
        edge(plan.hoursEnd, end),
        demandFromRollups(meter.interval_minutes)
          ? undefined
          : repo.halfHourPeaks(db, meter.account_id, meter.id, plan, start),
      ]);
      return priceHourly(context, plan, aggregates, [...before, ...after], halfHours);
    }
    const windowStart = utilisationWindowStart(context);
    const [readings, earlierReadings] = await Promise.all([
      repo.readings(db, meter.account_id, meter.id, start, end),
      windowStart ? repo.readings(db, meter.account_id, meter.id, windowStart, start) : Promise.resolve([]),
    ]);
    return priceReadings({ ...context, readings, earlierReadings });
  }

  /**
   * The bills of one source's meter over [start, end): one per part priced by one tariff, as the
   * source's tariff history records it (pending transitions after it); parts without a tariff have
   * no bill. Unpriced, with the reason, when no part has a tariff or the meter is not electricity.
   */
  async function priceSource(
    auth: AuthContext,
    accountId: string,
    meter: CostMeterRow | undefined,
    tariffs: { records: TariffRecord[]; pending: PendingTransition[] },
    start: Date,
    end: Date,
  ) {
    const segments = tariffSegments(tariffs.records, tariffs.pending, start, end);
    if (segments.length === 0) return { meterSn: meter?.meter_sn ?? null, bills: [], unpriced: NO_TARIFF };
    if (!meter) throw notFound('Meter');
    if (!isElectricityMeter(meter)) return { meterSn: meter.meter_sn, bills: [], unpriced: notElectricity(meter) };
    const bills: Bill[] = [];
    for (const segment of segments) {
      const tariff = await tariffAccess.recordedTariff(auth, segment.tariffId, accountId);
      bills.push(await bill(tariff, meter, segment.start, segment.end));
    }
    return { meterSn: meter.meter_sn, bills, unpriced: null };
  }

  async function meterCost(auth: AuthContext, tariffId: number, query: TariffCostQuery) {
    const meter = assertOwned(await repo.findMeterBySn(db, query.meter_sn), query.account_id, 'Meter');
    if (!isElectricityMeter(meter)) throw badRequest(`meter_sn: ${notElectricity(meter)}`);
    const tariff = await tariffAccess.usableTariff(auth, tariffId, query.account_id);
    return bill(tariff, meter, new Date(query.start), new Date(query.end));
  }

  async function buildingCost(auth: AuthContext, blockId: number, query: BuildingCostQuery) {
    const [start, end] = [new Date(query.start), new Date(query.end)];
    const facts = assertOwned(
      await repo.buildingFacts(db, query.account_id, blockId, end),
      query.account_id,
      'Building block',
    );
    const { config, meters, history, pending } = facts;
    if (!config) throw notFound('Dashboard config');
    const sources = await Promise.all(
      SOURCES.map(async (source) => {
        const meterId = config[`${source}_meter_id`] ?? null;
        const tariffId = config[`${source}_tariff_id`] ?? null;
        const base = { source, meter_id: meterId, tariff_id: tariffId };
        const unpriced = (meter_sn: string | null, reason: string) =>
          ({ ...base, meter_sn, priced: false, reason, bills: [], total: null }) as const;
        if (meterId === null) return unpriced(null, unpricedReason(meterId, tariffId));
        const records = history.filter((record) => record.source === source);
        const {
          meterSn,
          bills,
          unpriced: reason,
        } = await priceSource(auth, query.account_id, meters.get(meterId), { records, pending }, start, end);
        if (reason) return unpriced(meterSn, reason);
        const total = exactTotal(
          bills.map((b) => b.total),
          start,
          end,
        ).toNumber();
        return { ...base, meter_sn: meterSn, priced: true, reason: null, bills, total };
      }),
    );
    const byCurrency = new Map<string, number[]>();
    for (const b of sources.flatMap((s) => s.bills)) {
      const amounts = byCurrency.get(b.currency) ?? [];
      amounts.push(b.total);
      byCurrency.set(b.currency, amounts);
    }
    const totals = new Map([...byCurrency].map(([currency, amounts]) => [currency, exactTotal(amounts, start, end)]));
    return {
      building_block_id: blockId,
      start: start.toISOString(),
      end: end.toISOString(),
      sources,
      totals: Object.fromEntries([...totals].map(([currency, amount]) => [currency, amount.toNumber()])),
    };
  }

  // Admission comes right after the organization's access check: a refused request costs no
  // database work, which matters when one organization floods.
  return {
    async priceMeter(auth: AuthContext, tariffId: number, query: TariffCostQuery) {
      await guard.require(auth, query.account_id, 'read');
      return admission.admit(auth, query.account_id, () => meterCost(auth, tariffId, query));
    },

    async priceBuilding(auth: AuthContext, blockId: number, query: BuildingCostQuery) {
      await guard.require(auth, query.account_id, 'read');
      return admission.admit(auth, query.account_id, () => buildingCost(auth, blockId, query));
    },
  };
}

export type CostService = ReturnType<typeof createCostService>;
