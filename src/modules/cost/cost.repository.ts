import { METER_FIELDS as CONFIG_METERS, TARIFF_FIELDS } from '../../db/energy-sources.ts';
import { groupByMonth } from '../../db/kept-months.ts';
import type { Executor } from '../../db/types.ts';
import type {
  BillingMonth,
  DayType,
  HalfHourPeak,
  HourlyAggregate,
  HourlyPlan,
  PricingCalendar,
  PricingItem,
  PricingTariff,
  Reading,
  TariffType,
} from './engine/index.ts';
import { HourColumns, NO_HOURS, type PackedHourlyRows } from './hourly-groups.ts';
import type { ReadingRow } from './reading-columns.ts';

/** What pricing needs of a tariff's own row. */
interface CostTariffRow {
  id: number;
  account_id: string;
  tariff_type: TariffType;
  currency: string;
  tax_rate: number;
  timezone: string;
  dso_id: number | null;
  effective_from: string;
  effective_to: string;
}

export interface CostMeterRow {
  id: number;
  account_id: string;
  meter_sn: string;
  meter_type: string;
  interval_minutes: number;
  notified_max_demand_kva: number | null;
  /** The local date the supply began (YYYY-MM-DD); null: the local date of the first reading. */
  installed_on: string | null;
}

const METER_FIELDS = [
  'id',
  'account_id',
  'meter_sn',
  'meter_type',
  'interval_minutes',
  'notified_max_demand_kva',
  'installed_on',
] as const;
const METER_COLUMNS = METER_FIELDS.join(', ');

const CONFIG_COLUMNS = [...CONFIG_METERS, ...TARIFF_FIELDS];

/** The facts of buildingFacts() (the column names come from the constants above, never from input). */
const BUILDING_FACTS = `WITH config AS (
    SELECT * FROM energy_dashboard_configs WHERE building_block_id = $1 AND account_id = $2)
  SELECT b.account_id, b.building_type,
    (SELECT json_build_object(${CONFIG_COLUMNS.map((c) => `'${c}', c.${c}`).join(', ')}) FROM config c) AS config,
    (SELECT coalesce(json_agg(json_build_object(${METER_FIELDS.map((c) => `'${c}', m.${c}`).join(', ')})), '[]')
     FROM meters m JOIN config c ON m.id IN (${CONFIG_METERS.map((c) => `c.${c}`).join(', ')})
     WHERE m.account_id = $2) AS meters,
    (SELECT coalesce(json_agg(json_build_object('source', h.source, 'tariff_id', h.tariff_id,
         'effective_from', h.effective_from) ORDER BY h.id), '[]')
     FROM tariff_history h
     WHERE h.account_id = $2 AND h.building_block_id = $1) AS history,
    (SELECT coalesce(json_agg(json_build_object('predecessor_id', t.predecessor_id, 'successor_id', t.successor_id,
         'effective_from', t.effective_from)), '[]')
     FROM tariff_transitions t WHERE t.account_id = $2 AND t.applied_at IS NULL) AS pending
  FROM building_blocks b WHERE b.id = $1`;

interface BuildingFactsRow {
  account_id: string;
  building_type: string;
  config: Record<(typeof CONFIG_COLUMNS)[number], number | null> | null;
  meters: CostMeterRow[];
  history: { source: string; tariff_id: number | null; effective_from: string | null }[];
  pending: { predecessor_id: number; successor_id: number; effective_from: string }[];
}

/** A meter's hourly rollups packed, one binary column per value (hourly-groups.ts). */
const PACKED_HOURS = `string_agg(int4send((date_part('epoch', h.bucket_start)::int8 / 3600)::int4), ''::bytea ORDER BY h.bucket_start) AS hour,
  string_agg(float8send(h.import_uwh::float8), ''::bytea ORDER BY h.bucket_start) AS import_uwh,
  string_agg(float8send(h.export_uwh::float8), ''::bytea ORDER BY h.bucket_start) AS export_uwh,
  string_agg(float8send(h.uvarh::float8), ''::bytea ORDER BY h.bucket_start) AS uvarh,
  string_agg(int4send(h.readings), ''::bytea ORDER BY h.bucket_start) AS readings,
  string_agg(float8send(h.max_kva), ''::bytea ORDER BY h.bucket_start) AS max_kva`;
/** The hourly rollups of meter $1 in [$2, $3), if it belongs to organization $4. */
const HOURS_OF_METER = `FROM readings_hourly h
  WHERE h.meter_id = $1 AND h.bucket_start >= $2 AND h.bucket_start < $3
    AND EXISTS (SELECT 1 FROM meters m WHERE m.id = $1 AND m.account_id = $4)`;
const hourKeyLiterals = new WeakMap<HourlyPlan, string>();

/**
 * The plan's keys as an array literal, made once per plan (plans are cached): node-postgres quotes
 * and escapes each element of a JS array, about 0.1 ms for a month's 744.
 */
function hourKeysLiteral(plan: HourlyPlan): string {
  let literal = hourKeyLiterals.get(plan);
  if (literal === undefined) {
    literal = `{${plan.hourKeys.join(',')}}`;
    hourKeyLiterals.set(plan, literal);
  }
  return literal;
}

/** A period and its whole hours: the partial hours at its edges are [start, hoursStart) and [hoursEnd, end). */
export interface EdgeHours {
  start: Date;
  hoursStart: Date;
  hoursEnd: Date;
  end: Date;
}

export const costRepository = {
  async findMeterBySn(db: Executor, meterSn: string) {
    const [row] = await db.query<CostMeterRow>(`SELECT ${METER_COLUMNS} FROM meters WHERE meter_sn = $1`, [meterSn]);
    return row;
  },

  /** The tariff with its items (and their units and blocks), as the pricing engine takes it. */
  async pricingTariff(
    db: Executor,
    { id, account_id, tariff_type, currency, tax_rate, timezone, effective_from, effective_to }: CostTariffRow,
  ): Promise<PricingTariff> {
    const items = await db.query<PricingItem>(
      `SELECT i.item_type_code, i.price, i.season, coalesce(i.unit, it.unit) AS unit,
              i.demand_periods, i.demand_basis, i.free_ratio, i.volume_share, i.max_kl,
              coalesce(json_agg(json_build_object('block_index', b.block_index, 'upper_limit', b.upper_limit,
                'unit_price_cents', b.unit_price_cents) ORDER BY b.block_index) FILTER (WHERE b.id IS NOT NULL), '[]') AS blocks
       FROM tariff_items i
       JOIN tariff_item_types it ON it.code = i.item_type_code
       LEFT JOIN tariff_blocks b ON b.tariff_item_id = i.id
       WHERE i.tariff_id = $1 AND EXISTS (SELECT 1 FROM tariffs t WHERE t.id = i.tariff_id AND t.account_id = $2)
       GROUP BY i.id, it.unit ORDER BY i.id`,
      [id, account_id],
    );
    return { id, tariff_type, currency, tax_rate, timezone, effective_from, effective_to, items };
  },

  /** Seasons and holidays of the tariff's distributor, and the rules of its time-of-use schedule if it has one. */
  async calendar(db: Executor, tariff: CostTariffRow, scheduleId: number | null): Promise<PricingCalendar> {
    const [schedule] = scheduleId
      ? await db.query<{ dso_id: number; holiday_default: DayType }>(
          'SELECT dso_id, holiday_default FROM tou_schedules WHERE id = $1',
          [scheduleId],
        )
      : [];
    const dsoId = tariff.dso_id ?? schedule?.dso_id ?? null;
    const [seasons, holidays, rules] = await Promise.all([
      db.query<PricingCalendar['seasons'][number]>(
        'SELECT label, date_start, date_end FROM dso_seasons WHERE dso_id = $1 ORDER BY id',
        [dsoId],
      ),
      db.query<PricingCalendar['holidays'][number]>(
        'SELECT on_date, day_type_override FROM dso_public_holidays WHERE dso_id = $1 ORDER BY on_date',
        [dsoId],
      ),
      schedule
        ? db.query<NonNullable<PricingCalendar['schedule']>['rules'][number]>(
            `SELECT s.label AS season, r.day_type, r.period, r.start_minute, r.end_minute
             FROM tou_rules r JOIN dso_seasons s ON s.id = r.season_id
             WHERE r.schedule_id = $1 ORDER BY r.id`,
            [scheduleId],
          )
        : Promise.resolve([]),
    ]);
    return { seasons, holidays, schedule: schedule ? { holiday_default: schedule.holiday_default, rules } : null };
  },

  readings(db: Executor, accountId: string, meterId: number, start: Date, end: Date) {
    return db.query<Reading>(
      `SELECT r.ts, r.import_kwh, r.export_kwh, r.kvarh, r.kva
       FROM readings r JOIN meters m ON m.id = r.meter_id AND m.account_id = $4
       WHERE r.meter_id = $1 AND r.ts >= $2 AND r.ts < $3 ORDER BY r.ts`,
      [meterId, start, end, accountId],
      { reusePlan: true },
    );
  },

  /** The meter's readings of [from, to) as months of them are kept (reading-columns.ts), oldest first. */
  readingRows(db: Executor, accountId: string, meterId: number, from: Date, to: Date) {
    return db.query<ReadingRow>(
      `SELECT floor(extract(epoch FROM r.ts) * 1000)::int8 AS ms, r.import_kwh, r.export_kwh, r.kvarh, r.kva
       FROM readings r JOIN meters m ON m.id = r.meter_id AND m.account_id = $4
       WHERE r.meter_id = $1 AND r.ts >= $2 AND r.ts < $3 ORDER BY r.ts`,
      [meterId, from, to, accountId],
      { reusePlan: true },
    );
  },

  /**
   * The readings of a period's partial hours at its edges, [start, hoursStart) and [hoursEnd, end)
   * (either may be empty), oldest first, in one round trip.
   */
  edgeReadings(db: Executor, accountId: string, meterId: number, plan: EdgeHours) {
    return db.query<Reading>(
      `SELECT r.ts, r.import_kwh, r.export_kwh, r.kvarh, r.kva
       FROM readings r JOIN meters m ON m.id = r.meter_id AND m.account_id = $6
       WHERE r.meter_id = $1 AND ((r.ts >= $2 AND r.ts < $3) OR (r.ts >= $4 AND r.ts < $5)) ORDER BY r.ts`,
      [meterId, plan.start, plan.hoursStart, plan.hoursEnd, plan.end, accountId],
      { reusePlan: true },
    );
  },

  /**
   * For a meter of intervals under 30 minutes: the highest half hour (clock-aligned) of each plan key,
   * among the half hours of the whole hours (in_period) and those of the look-back before `start`
   * (the partial hour after `start` is measured from its readings). Each reading's kVA in millionths
   * is floor(x * 1e6 + 0.5) of the same double, as the engine's Math.round; half hours compared by
   * their mean, which numeric division tells apart exactly for counts of at most 6.
   */
  halfHourPeaks(db: Executor, accountId: string, meterId: number, plan: HourlyPlan, start: Date) {
    return db.query<HalfHourPeak>(
      `SELECT DISTINCT ON (key, in_period) key, in_period, sum_micro, count
       FROM (
         SELECT ($4::int[])[(half_hour / 2 - $5)::int + 1] AS key, in_period,
                sum(floor(kva * 1e6 + 0.5))::int8 AS sum_micro, count(*)::int AS count
         FROM (
           SELECT date_part('epoch', r.ts)::bigint / 1800 AS half_hour, r.ts >= $6 AS in_period, r.kva
           FROM readings r
           WHERE r.meter_id = $1 AND r.ts >= $2 AND r.ts < $3 AND (r.ts < $7 OR r.ts >= $6)
             AND EXISTS (SELECT 1 FROM meters m WHERE m.id = $1 AND m.account_id = $8)
         ) r
         GROUP BY half_hour, in_period
       ) h
       ORDER BY key, in_period, sum_micro::numeric / count DESC`,
      [meterId, plan.from, plan.hoursEnd, hourKeysLiteral(plan), plan.firstHour, plan.hoursStart, start, accountId],
      { reusePlan: true },
    );
  },

  /**
   * The meter's hourly rollups from plan.from to plan.hoursEnd, summed by the plan's key of each hour
   * (its local month, day class and period) and by whether they fall before plan.hoursStart. Sums in
   * millionths, as the engine measures readings; readings: the read intervals, at most the meter's
   * intervals of each hour (readings off the grid of a changed interval count once per interval).
   * (date_part, a double, is exact on whole hours and about 3 times as fast as extract, a numeric,
   * over a year of hours.)
   */
  hourlyAggregates(db: Executor, accountId: string, meterId: number, plan: HourlyPlan) {
    return db.query<HourlyAggregate>(
      `SELECT ($4::int[])[(date_part('epoch', h.bucket_start)::bigint / 3600 - $5)::int + 1] AS key,
              h.bucket_start >= $6 AS in_period,
              sum(h.import_uwh) / 1000 AS import_micro, sum(h.export_uwh) / 1000 AS export_micro,
              sum(h.uvarh) / 1000 AS kvarh_micro, sum(least(h.readings, $8))::int AS readings,
              max(h.max_kva) AS max_kva
       FROM readings_hourly h
       WHERE h.meter_id = $1 AND h.bucket_start >= $2 AND h.bucket_start < $3
         AND EXISTS (SELECT 1 FROM meters m WHERE m.id = $1 AND m.account_id = $7)
       GROUP BY 1, 2`,
      [
        meterId,
        plan.from,
        plan.hoursEnd,
        hourKeysLiteral(plan),
        plan.firstHour,
        plan.hoursStart,
        accountId,
        plan.intervalsPerHour,
      ],
      { reusePlan: true },
    );
  },

  /**
   * The meter's hourly rollups of [from, to) as stored, oldest first, in columns: what several
   * tariffs' plans group each their own way (hourly-groups.ts). Read packed, one row of six values:
   * as rows, a month's 720 were parsed on the event loop (with the garbage they leave), 15% of the
   * service's time at a flood's start.
   */
  hourlyColumns(db: Executor, accountId: string, meterId: number, from: Date, to: Date) {
    return db
      .query<PackedHourlyRows>(`SELECT ${PACKED_HOURS} ${HOURS_OF_METER}`, [meterId, from, to, accountId], {
        reusePlan: true,
      })
      .then(([packed]) => HourColumns.unpack(packed!));
  },

  /** The same by UTC month of [from, to) (whole months), in order, one round trip: what months are kept as. */
  hourlyColumnsByMonth(db: Executor, accountId: string, meterId: number, from: Date, to: Date) {
    return db
      .query<PackedHourlyRows & { month_ms: number }>(
        `SELECT (date_part('epoch', date_trunc('month', h.bucket_start, 'UTC')) * 1000)::int8 AS month_ms, ${PACKED_HOURS}
         ${HOURS_OF_METER} GROUP BY 1`,
        [meterId, from, to, accountId],
        { reusePlan: true },
      )
      .then((rows) =>
        groupByMonth(rows, (row) => row.month_ms, from, to).map(([packed]) => HourColumns.unpack(packed ?? NO_HOURS)),
      );
  },

  /**
   * Of the local months given, the keys of those where the meter's readings carry an apparent power
   * other than their real power (their rollups' sums differ): a kVA measured, not taken as kW. By
   * whole hours: the hour a month begins in counts for it.
   */
  async apparentPowerMonths(db: Executor, accountId: string, meterId: number, months: BillingMonth[]) {
    const iso = (ms: number) => new Date(ms).toISOString();
    const rows = await db.query<{ month_key: number }>(
      `SELECT m.month_key FROM unnest($2::int[], $3::timestamptz[], $4::timestamptz[]) AS m(month_key, start_at, end_at)
       WHERE EXISTS (SELECT 1 FROM meters mt WHERE mt.id = $1 AND mt.account_id = $5)
         AND EXISTS (SELECT 1 FROM readings_hourly h
                     WHERE h.meter_id = $1 AND h.bucket_start >= date_trunc('hour', m.start_at, 'UTC')
                       AND h.bucket_start < m.end_at AND h.sum_uva <> h.sum_power_uw)`,
      [
        meterId,
        months.map((month) => month.monthKey),
        months.map((month) => iso(month.startMs)),
        months.map((month) => iso(month.endMs)),
        accountId,
      ],
    );
    return rows.map((row) => row.month_key);
  },

  /** The instant of the meter's first reading (ms), null without readings. */
  async firstReadingMs(db: Executor, meter: CostMeterRow) {
    const [row] = await db.query<{ ms: number | null }>(
      `SELECT floor(extract(epoch FROM min(r.ts)) * 1000)::int8 AS ms FROM readings r
       WHERE r.meter_id = $1 AND EXISTS (SELECT 1 FROM meters m WHERE m.id = $1 AND m.account_id = $2)`,
      [meter.id, meter.account_id],
    );
    return row?.ms ?? null;
  },

  /**
   * The meter's highest half-hour demand (kVA) in [from, to), null without readings: its readings'
   * kVA averaged by clock-aligned half hour (a reading of 30 minutes or more is its half hours' demand).
   */
  async highestHalfHourKva(db: Executor, meter: CostMeterRow, from: Date, to: Date) {
    const [row] = await db.query<{ kva: number | null }>(
      meter.interval_minutes >= 30
        ? `SELECT max(h.max_kva) AS kva ${HOURS_OF_METER}`
        : `SELECT max(kva) AS kva FROM (
             SELECT avg(r.kva) AS kva FROM readings r
             WHERE r.meter_id = $1 AND r.ts >= $2 AND r.ts < $3
               AND EXISTS (SELECT 1 FROM meters m WHERE m.id = $1 AND m.account_id = $4)
             GROUP BY date_part('epoch', r.ts)::bigint / 1800) h`,
      [meter.id, from, to, meter.account_id],
    );
    return row?.kva ?? null;
  },

  /**
   * In one round trip, what a building cost needs before it prices: the block's organization (its
   * own, to check), and of the organization addressed: the block's dashboard config (null: none),
   * the meters it names, the tariff records of its sources (oldest first; a tariff deleted since
   * still prices its part, so that a past bill does not change), and the organization's
   * transitions not applied yet, whenever each takes effect (the service keeps them for any period).
   */
  async buildingFacts(db: Executor, accountId: string, blockId: number) {
    const [row] = await db.query<BuildingFactsRow>(BUILDING_FACTS, [blockId, accountId], { reusePlan: true });
    if (!row) return undefined;
    const date = (iso: string | null) => (iso === null ? null : new Date(iso));
    return {
      account_id: row.account_id,
      building_type: row.building_type,
      config: row.config,
      meters: new Map(row.meters.map((meter) => [meter.id, meter])),
      history: row.history.map((record) => ({ ...record, effective_from: date(record.effective_from) })),
      pending: row.pending.map((transition) => ({
        ...transition,
        effective_from: new Date(transition.effective_from),
      })),
    };
  },
};
