import { Decimal } from 'decimal.js';
import { meterField, SOURCES, type Source, tariffField } from '../../db/energy-sources.ts';
import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Database } from '../../db/types.ts';
import { createVersionedResults, type VersionedResults } from '../../db/versioned-results.ts';
import { type AccessGuard, assertOwned } from '../../http/access-guard.ts';
import type { Admission } from '../../http/admission.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { yieldToEventLoop } from '../../http/event-loop.ts';
import type { TariffAccess } from '../tariffs/tariffs.model.ts';
import { touScheduleId } from '../tariffs/tariffs.model.ts';
import { type Utility, utilityOf } from '../timeseries/timeseries.model.ts';
import { type CostMeterRow, type EdgeHours, costRepository as repo } from './cost.repository.ts';
import type { BuildingCostQuery, TariffCostQuery } from './cost.schemas.ts';
import {
  type BillingContext,
  billingMonths,
  chargesMeasuredKva,
  demandFromRollups,
  type Bill as EngineBill,
  type HourlyPlan,
  priceHourly,
  priceReadings,
  type Reading,
  utilisationWindowStart,
} from './engine/index.ts';
import { assertExactBill, assertExactSum } from './exact-money.ts';
import { groupHourlyRows } from './hourly-groups.ts';
import { createMeterHours, type KeptMeterMonths } from './meter-hours.ts';
import { createPlanCache } from './plan-cache.ts';
import { createSupplyStart } from './supply-start.ts';
import { type PendingTransition, type TariffRecord, tariffSegments } from './tariff-segments.ts';

const notBilled = (meter: CostMeterRow) => `Meter ${meter.meter_sn} is not an electricity or water meter`;
/** A source's meter of the other utility (a water meter as the grid's, an electricity meter as the water supply's). */
const notOf = (meter: CostMeterRow, utility: Utility) =>
  `Meter ${meter.meter_sn} is not ${utility === 'water' ? 'a water' : 'an electricity'} meter`;

const NO_TARIFF = 'No tariff configured';

/** The blocks whose facts (config, meters, tariff history) are kept, the least recently asked for dropped first. */
const KEPT_BLOCK_FACTS = 10_000;

/** A source of a block without a dashboard config, as the building cost would list it if it had one. */
const unconfigured = (source: Source) =>
  ({
    source,
    meter_id: null,
    tariff_id: null,
    meter_sn: null,
    priced: false,
    reason: 'No dashboard config',
    bills: [],
    total: null,
  }) as const;

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

/** A part of a period priced with one tariff. */
export interface PricedPart {
  tariffId: number;
  start: Date;
  end: Date;
}

/** One meter's bill of a period with one tariff, as the cost endpoints answer it. */
export type KeptBill = EngineBill & { meter_sn: string; start: string; end: string };

export interface CostDeps {
  db: Database;
  /** What pricing needs of a tariff (items, calendar) is read once and kept until the tariff changes. */
  cache: ReadCache;
  guard: AccessGuard;
  tariffAccess: Pick<TariffAccess, 'usableTariff' | 'recordedTariff'>;
  /** Pricing is expensive: it runs under the admission of the caller and the organization addressed (account_id), after the access checks. */
  admission: Admission;
  /** Bills kept by the versions of what they were priced from: the meter's readings, the tariff's pricing. */
  bills: VersionedResults<KeptBill>;
  /** Meters' months of hourly rollups and readings, what bills are priced from. */
  months: KeptMeterMonths;
}

/** A bill of nothing: the meter's supply bills none of the period (supply-start.ts). */
function unsuppliedBill(
  tariff: PricedTariff,
  meter: CostMeterRow,
  period: { start: Date; end: Date },
  { warning, complete }: { warning: string; complete: boolean },
): KeptBill {
  return {
    tariff_id: tariff.id,
    meter_sn: meter.meter_sn,
    start: period.start.toISOString(),
    end: period.end.toISOString(),
    currency: tariff.currency,
    approximate: false,
    import_kwh: 0,
    export_kwh: 0,
    kvarh: 0,
    max_kva: null,
    lines: [],
    subtotal: 0,
    tax_rate: Number(tariff.tax_rate),
    tax: 0,
    total: 0,
    missing_intervals: 0,
    complete,
    warnings: [warning],
    months: [],
  };
}

/** The bill with a warning first, in its own and in its first month's (a kept bill is left as it is). */
function withWarning(bill: KeptBill, warning: string | null): KeptBill {
  if (warning === null) return bill;
  const [first, ...rest] = bill.months;
  const months = first ? [{ ...first, warnings: [warning, ...first.warnings] }, ...rest] : [];
  return { ...bill, warnings: [warning, ...bill.warnings], months };
}

export function createCostService({ db, cache, guard, tariffAccess, admission, bills, months }: CostDeps) {
  const planFor = createPlanCache();
  const suppliedPart = createSupplyStart(db, cache);
  const keptFacts = createVersionedResults<Awaited<ReturnType<typeof repo.buildingFacts>>>(KEPT_BLOCK_FACTS, () => 1);
  const meterHours = createMeterHours({ db, cache, ...months });
  /** Where a bill's readings of a meter are read: the replica, unless it has not replayed this process's known changes of them. */
  const readingsOf = (meterId: number) => db.reads(cacheKeys.meterReadings(meterId));

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

  /** What the engine prices a meter's period with under one tariff. */
  async function contextOf(tariff: PricedTariff, meter: CostMeterRow, start: Date, end: Date): Promise<BillingContext> {
    const { pricing, calendar } = await pricingOf(tariff);
    return {
      utility: utilityOf(meter) ?? 'electricity',
      tariff: pricing,
      calendar,
      start,
      end,
      intervalMinutes: meter.interval_minutes,
      notifiedMaxDemandKva: meter.notified_max_demand_kva,
    };
  }

  function billOf(meter: CostMeterRow, context: BillingContext, priced: Awaited<ReturnType<typeof price>>) {
    const { tariff_id, ...rest } = priced;
    assertExactBill(rest, periodName(context.start, context.end));
    const period = { start: context.start.toISOString(), end: context.end.toISOString() };
    return { tariff_id, meter_sn: meter.meter_sn, ...period, ...rest };
  }

  /**
   * The bill of one meter over [start, end) with one tariff of the organization or the catalogue.
   * It is kept while the meter's readings and the tariff's pricing (a new object whenever the tariff,
   * its items or its calendar change) are the ones it was priced from; the versions are taken before
   * pricing, so a write during it leaves the bill unused. [start, end) lies within the meter's supply.
   */
  async function keptBill(tariff: PricedTariff, meter: CostMeterRow, start: Date, end: Date): Promise<KeptBill> {
    const readings = cache.version(cacheKeys.meterReadings(meter.id));
    const context = await contextOf(tariff, meter, start, end);
    const { meter_sn, meter_type, account_id, id, interval_minutes, notified_max_demand_kva } = meter;
    const key = JSON.stringify([
      id,
      account_id,
      meter_sn,
      meter_type,
      interval_minutes,
      notified_max_demand_kva,
      tariff.id,
      start,
      end,
    ]);
    return bills.get([readings, context.tariff, context.calendar], key, async () =>
      billOf(meter, context, await price(meter, context)),
    );
  }

  /**
   * The bill of one meter over [start, end) with one tariff, from the meter's installation on
   * (extensions §13.2): a period wholly before it bills nothing, one that begins before it is billed
   * from it and says so.
   */
  async function bill(tariff: PricedTariff, meter: CostMeterRow, start: Date, end: Date) {
    const supplied = await suppliedPart(meter, tariff.timezone, start, end);
    if (supplied.start === null) return unsuppliedBill(tariff, meter, { start, end }, supplied);
    return withWarning(await keptBill(tariff, meter, supplied.start, supplied.end), supplied.warning);
  }

  type Bill = KeptBill;

  /**
   * From the hourly rollups of its whole hours where they give the exact bill (nearly always), else
   * from the readings. Priced from months kept in memory, in a round of the event loop of its own.
   */
  async function price(meter: CostMeterRow, measured: BillingContext) {
    const context = await withApparentPower(meter, measured);
    const { start, end } = context;
    const plan = await planFor(context, meter.account_id);
    if (plan) {
      const [rows, edges, halfHours] = await Promise.all([
        meterHours.hourlyMonths(meter, plan.from, plan.hoursEnd),
        edgeReadings(meter, { start, hoursStart: plan.hoursStart, hoursEnd: plan.hoursEnd, end }),
        demandFromRollups(meter.interval_minutes)
          ? undefined
          : repo.halfHourPeaks(readingsOf(meter.id), meter.account_id, meter.id, plan, start),
      ]);
      if (!rows) {
        return priceHourly(
          context,
          plan,
          await repo.hourlyAggregates(readingsOf(meter.id), meter.account_id, meter.id, plan),
          edges,
          halfHours,
        );
      }
      // From months kept in memory nothing above waits: each bill is priced in a round of the event
      // loop of its own, so that other requests run between a building's bills (a year's takes a few ms).
      await yieldToEventLoop(meter.account_id);
      return priceHourly(context, plan, groupHourlyRows(plan, rows), edges, halfHours);
    }
    const windowStart = utilisationWindowStart(context);
    const [readings, earlierReadings] = await Promise.all([
      repo.readings(readingsOf(meter.id), meter.account_id, meter.id, start, end),
      windowStart
        ? repo.readings(readingsOf(meter.id), meter.account_id, meter.id, windowStart, start)
        : Promise.resolve([]),
    ]);
    return priceReadings({ ...context, readings, earlierReadings });
  }

  /**
   * The context with the months whose readings carry a measured kVA, read only where a bill could
   * say that kVA was taken as kW (the tariff charges kVA/month on measured demand).
   */
  async function withApparentPower(meter: CostMeterRow, context: BillingContext): Promise<BillingContext> {
    if (!chargesMeasuredKva(context.tariff.items, context.utility)) return context;
    const months = billingMonths(context.tariff.timezone, context.start.getTime(), context.end.getTime());
    const found = await repo.apparentPowerMonths(readingsOf(meter.id), meter.account_id, meter.id, months);
    return { ...context, apparentPowerMonths: new Set(found) };
  }

  /**
   * The bills of one source's meter over [start, end): one per part priced by one tariff, as the
   * source's tariff history records it (pending transitions after it); parts without a tariff have
   * no bill. Unpriced, with the reason, when no part has a tariff or the meter is not of the
   * source's utility (water for the water supply, electricity for the others).
   */
  async function priceSource(
    auth: AuthContext,
    accountId: string,
    source: Source,
    meter: CostMeterRow | undefined,
    tariffs: { records: TariffRecord[]; pending: PendingTransition[] },
    start: Date,
    end: Date,
  ) {
    const segments = tariffSegments(tariffs.records, tariffs.pending, start, end);
    if (segments.length === 0) return { meterSn: meter?.meter_sn ?? null, bills: [], unpriced: NO_TARIFF };
    if (!meter) throw notFound('Meter');
    const utility = source === 'water' ? 'water' : 'electricity';
    if (utilityOf(meter) !== utility) return { meterSn: meter.meter_sn, bills: [], unpriced: notOf(meter, utility) };
    const bills: Bill[] = [];
    for (const segment of segments) {
      const tariff = await tariffAccess.recordedTariff(auth, segment.tariffId, accountId);
      bills.push(await bill(tariff, meter, segment.start, segment.end));
    }
    return { meterSn: meter.meter_sn, bills, unpriced: null };
  }

  async function meterCost(auth: AuthContext, tariffId: number, query: TariffCostQuery) {
    const meter = assertOwned(await repo.findMeterBySn(db, query.meter_sn), query.account_id, 'Meter');
    if (!utilityOf(meter)) throw badRequest(`meter_sn: ${notBilled(meter)}`);
    const tariff = await tariffAccess.usableTariff(auth, tariffId, query.account_id);
    return bill(tariff, meter, new Date(query.start), new Date(query.end));
  }

  type Facts = NonNullable<Awaited<ReturnType<typeof repo.buildingFacts>>>;

  /**
   * The block's facts for a building cost of the organization addressed (403/404 for the block),
   * with the tariff records and pending transitions that take effect before `end`. Kept until a
   * write names the organization's building facts (here at once, elsewhere by its notice); another
   * organization's block, or none, is read each time.
   */
  async function blockFacts(accountId: string, blockId: number, end: Date) {
    const version = cache.version(cacheKeys.buildingFacts(accountId));
    const read = () => repo.buildingFacts(db, accountId, blockId);
    let facts = await keptFacts.get([version], JSON.stringify([accountId, blockId]), read);
    if (facts?.account_id !== accountId) facts = await read();
    const { history, pending, ...rest } = assertOwned(facts, accountId, 'Building block');
    return {
      ...rest,
      history: history.filter((record) => record.effective_from === null || record.effective_from < end),
      pending: pending.filter((transition) => transition.effective_from < end),
    };
  }

  /** The block's facts for a building cost of the organization addressed: 404 without a dashboard config. */
  async function configuredBlock(accountId: string, blockId: number, end: Date) {
    const facts = await blockFacts(accountId, blockId, end);
    if (!facts.config) throw notFound('Dashboard config');
    return { ...facts, config: facts.config };
  }

  /** One source of the block as the building cost prices it: its bills by tariff history, or unpriced with the reason. */
  async function sourceCost(
    auth: AuthContext,
    accountId: string,
    facts: Facts & { config: NonNullable<Facts['config']> },
    source: Source,
    start: Date,
    end: Date,
  ) {
    const { config, meters, history, pending } = facts;
    const meterId = config[meterField(source)] ?? null;
    const tariffId = config[tariffField(source)] ?? null;
    const base = { source, meter_id: meterId, tariff_id: tariffId };
    const unpriced = (meter_sn: string | null, reason: string) =>
      ({ ...base, meter_sn, priced: false, reason, bills: [], total: null }) as const;
    if (meterId === null) return unpriced(null, unpricedReason(meterId, tariffId));
    const records = history.filter((record) => record.source === source);
    const {
      meterSn,
      bills,
      unpriced: reason,
    } = await priceSource(auth, accountId, source, meters.get(meterId), { records, pending }, start, end);
    if (reason) return unpriced(meterSn, reason);
    const total = exactTotal(
      bills.map((b) => b.total),
      start,
      end,
    ).toNumber();
    return { ...base, meter_sn: meterSn, priced: true as const, reason: null, bills, total };
  }

  async function buildingCost(auth: AuthContext, blockId: number, query: BuildingCostQuery) {
    const [start, end] = [new Date(query.start), new Date(query.end)];
    const facts = await configuredBlock(query.account_id, blockId, end);
    const sources = await Promise.all(
      SOURCES.map((source) => sourceCost(auth, query.account_id, facts, source, start, end)),
    );
    const byCurrency = new Map<string, number[]>();
    for (const b of sources.flatMap((s) => s.bills)) {
      const amounts = byCurrency.get(b.currency) ?? [];
      amounts.push(b.total);
      byCurrency.set(b.currency, amounts);
    }
    const totals = new Map([...byCurrency].map(([currency, amounts]) => [currency, exactTotal(amounts, start, end)]));
    // Its answer (a year's bills are some 100 kB of JSON) is written in a round of its own too.
    await yieldToEventLoop(query.account_id);
    return {
      building_block_id: blockId,
      start: start.toISOString(),
      end: end.toISOString(),
      sources,
      totals: Object.fromEntries([...totals].map(([currency, amount]) => [currency, amount.toNumber()])),
    };
  }

  /**
   * The plan of a bill priced from hourly rows shared with other tariffs (hourly-groups.ts), or
   * null when this bill needs its own reads: no plan, or demand from half hours.
   */
  async function sharedPlan(context: BillingContext, accountId: string) {
    const plan = await planFor(context, accountId);
    return plan && demandFromRollups(context.intervalMinutes) ? plan : null;
  }

  /**
   * The bills of one meter's readings over [start, end), one per tariff, each priced over the whole
   * period as the one-meter cost does: the hourly rollups and the edge readings are read once for
   * all the tariffs and grouped by each tariff's own plan. The bills are priced one after the other,
   * `between` awaited before each (where admitted work takes its next step).
   */
  async function billsWithTariffs(
    tariffs: PricedTariff[],
    meter: CostMeterRow,
    period: { start: Date; end: Date },
    between: () => Promise<void>,
  ) {
    const { start, end } = period;
    const planned = await Promise.all(
      tariffs.map(async (tariff) => {
        const context = await contextOf(tariff, meter, start, end);
        return { context, plan: await sharedPlan(context, meter.account_id) };
      }),
    );
    const plans = planned.flatMap(({ plan }) => (plan ? [plan] : []));
    const shared = plans.length === 0 ? undefined : await sharedReadings(meter, plans, start, end);
    const bills = [];
    for (const { context, plan } of planned) {
      await between();
      if (!plan || !shared) bills.push(billOf(meter, context, await price(meter, context)));
      else {
        await yieldToEventLoop(meter.account_id);
        const measured = await withApparentPower(meter, context);
        bills.push(
          billOf(meter, context, priceHourly(measured, plan, groupHourlyRows(plan, shared.rows), shared.edges)),
        );
      }
    }
    return bills;
  }

  /** The hourly rows from the earliest plan's look-back to the whole hours' end, and the readings of the partial hours at the edges. */
  async function sharedReadings(meter: CostMeterRow, plans: HourlyPlan[], start: Date, end: Date) {
    // Every plan of one period has the same whole hours; only the look-back (`from`) differs.
    const { hoursStart, hoursEnd } = plans[0]!;
    const from = new Date(Math.min(...plans.map((plan) => plan.from.getTime())));
    const [rows, edges] = await Promise.all([
      meterHours.hourlyMonths(meter, from, hoursEnd),
      edgeReadings(meter, { start, hoursStart, hoursEnd, end }),
    ]);
    return {
      rows: rows ?? [await repo.hourlyColumns(readingsOf(meter.id), meter.account_id, meter.id, from, hoursEnd)],
      edges,
    };
  }

  /** The readings of the period's partial hours at its edges, when it has any: from the months kept, else in one round trip. */
  async function edgeReadings(meter: CostMeterRow, hours: EdgeHours): Promise<Reading[]> {
    const [before, after] = await Promise.all([
      meterHours.readings(meter, hours.start, hours.hoursStart),
      meterHours.readings(meter, hours.hoursEnd, hours.end),
    ]);
    return before && after
      ? [...before, ...after]
      : repo.edgeReadings(readingsOf(meter.id), meter.account_id, meter.id, hours);
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

    // For other modules' expensive requests, which check access and take admission themselves.

    /**
     * One source of a block exactly as its building cost prices it, with the source's meter: 403/404
     * for the block as the building cost, 404 without a dashboard config (unless configRequired is
     * false: then unpriced, `No dashboard config`).
     */
    async sourceOfBlock(
      auth: AuthContext,
      accountId: string,
      blockId: number,
      source: Source,
      start: Date,
      end: Date,
      { configRequired = true } = {},
    ) {
      const facts = await blockFacts(accountId, blockId, end);
      if (!facts.config) {
        if (configRequired) throw notFound('Dashboard config');
        return { meter: undefined, buildingType: facts.building_type, cost: unconfigured(source) };
      }
      const configured = { ...facts, config: facts.config };
      const meterId = facts.config[meterField(source)] ?? null;
      const meter = meterId === null ? undefined : facts.meters.get(meterId);
      const cost = await sourceCost(auth, accountId, configured, source, start, end);
      return { meter, buildingType: facts.building_type, cost };
    },

    /**
     * The meter's bills of parts of a period, each with its tariff, the readings read once per
     * period. The tariffs are resolved as the one-meter cost resolves its tariff (403 another
     * organization's, 404 unknown), in order, before anything is priced. `between` is awaited
     * before each bill is priced: the admission's hand-over of the request calling, so that another
     * user's request waits for one bill, not for them all.
     */
    async priceParts(
      auth: AuthContext,
      accountId: string,
      meter: CostMeterRow,
      parts: readonly PricedPart[],
      between: () => Promise<void>,
    ) {
      const tariffs = new Map<number, PricedTariff>();
      for (const { tariffId } of parts) {
        if (!tariffs.has(tariffId)) tariffs.set(tariffId, await tariffAccess.usableTariff(auth, tariffId, accountId));
      }
      const bills: Bill[] = new Array(parts.length);
      const byPeriod = new Map<string, { period: { start: Date; end: Date }; indexes: number[] }>();
      const warnings: (string | null)[] = [];
      for (const [index, part] of parts.entries()) {
        const tariff = tariffs.get(part.tariffId)!;
        const supplied = await suppliedPart(meter, tariff.timezone, part.start, part.end);
        warnings.push(supplied.warning);
        if (supplied.start === null) {
          bills[index] = unsuppliedBill(tariff, meter, part, supplied);
          continue;
        }
        const key = `${supplied.start.getTime()}|${supplied.end.getTime()}`;
        const group = byPeriod.get(key) ?? { period: { start: supplied.start, end: supplied.end }, indexes: [] };
        group.indexes.push(index);
        byPeriod.set(key, group);
      }
      for (const { period, indexes } of byPeriod.values()) {
        const periodTariffs = indexes.map((i) => tariffs.get(parts[i]!.tariffId)!);
        const priced = await billsWithTariffs(periodTariffs, meter, period, between);
        indexes.forEach((partIndex, i) => {
          bills[partIndex] = withWarning(priced[i]!, warnings[partIndex]!);
        });
      }
      return parts.map((part, i) => ({ tariff: tariffs.get(part.tariffId)!, bill: bills[i]! }));
    },

    /** The meter's highest half-hour demand (kVA) in [from, to); null without readings. */
    highestHalfHourKva: (meter: CostMeterRow, from: Date, to: Date) => repo.highestHalfHourKva(db, meter, from, to),
  };
}

export type CostService = ReturnType<typeof createCostService>;
