import type { Executor } from '../../db/types.ts';
import type {
  DayType,
  HourlyAggregate,
  HourlyPlan,
  PricingCalendar,
  PricingItem,
  PricingTariff,
  Reading,
  TariffType,
} from './engine/index.ts';

/** What pricing needs of a tariff's own row. */
export interface CostTariffRow {
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
}

const METER_COLUMNS = 'id, account_id, meter_sn, meter_type, interval_minutes, notified_max_demand_kva';

export const costRepository = {
  async findMeterBySn(db: Executor, meterSn: string) {
    const [row] = await db.query<CostMeterRow>(`SELECT ${METER_COLUMNS} FROM meters WHERE meter_sn = $1`, [meterSn]);
    return row;
  },

  async findMeter(db: Executor, accountId: string, id: number) {
    const [row] = await db.query<CostMeterRow>(
      `SELECT ${METER_COLUMNS} FROM meters WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    return row;
  },

  /** The tariff with its items (and their units and blocks), as the pricing engine takes it. */
  async pricingTariff(
    db: Executor,
    { id, account_id, tariff_type, currency, tax_rate, timezone, effective_from, effective_to }: CostTariffRow,
  ): Promise<PricingTariff> {
    const items = await db.query<PricingItem>(
      `SELECT i.item_type_code, i.price, i.season, coalesce(i.unit, it.unit) AS unit,
              i.demand_periods, i.demand_basis, i.free_ratio,
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
    );
  },

  /**
   * The meter's hourly rollups from plan.from to plan.hoursEnd, summed by the plan's key of each hour
   * (its local month, day class and period) and by whether they fall before plan.hoursStart. Sums in millionths, as the
   * engine measures readings. previous_month_readings: the readings of [B, B + plan.lagMs) after each
   * of plan.monthStarts (in its own group: B's month is in the key), one index probe per month start.
   */
  hourlyAggregates(db: Executor, accountId: string, meterId: number, plan: HourlyPlan) {
    return db.query<HourlyAggregate>(
      `WITH late AS (
         SELECT ($4::int[])[(extract(epoch FROM b)::bigint / 3600 - $5)::int + 1] AS key,
                (SELECT count(*) FROM readings r
                 WHERE r.meter_id = $1 AND r.ts >= b AND r.ts < b + $9 * interval '1 ms')::int AS readings
         FROM unnest($8::timestamptz[]) AS b
       )
       SELECT hours.*, coalesce(late.readings, 0) AS previous_month_readings
       FROM (
         SELECT ($4::int[])[(extract(epoch FROM h.bucket_start)::bigint / 3600 - $5)::int + 1] AS key,
                h.bucket_start >= $6 AS in_period,
                sum(h.import_uwh) / 1000 AS import_micro, sum(h.export_uwh) / 1000 AS export_micro,
                sum(h.uvarh) / 1000 AS kvarh_micro, sum(h.readings)::int AS readings, max(h.max_kva) AS max_kva
         FROM readings_hourly h
         WHERE h.meter_id = $1 AND h.bucket_start >= $2 AND h.bucket_start < $3
           AND EXISTS (SELECT 1 FROM meters m WHERE m.id = $1 AND m.account_id = $7)
         GROUP BY 1, 2
       ) hours LEFT JOIN late ON late.key = hours.key AND hours.in_period`,
      [
        meterId,
        plan.from,
        plan.hoursEnd,
        plan.hourKeys,
        plan.firstHour,
        plan.hoursStart,
        accountId,
        plan.monthStarts,
        plan.lagMs,
      ],
    );
  },

  async findBlock(db: Executor, id: number) {
    const [row] = await db.query<{ id: number; account_id: string }>(
      'SELECT id, account_id FROM building_blocks WHERE id = $1',
      [id],
    );
    return row;
  },

  async config(db: Executor, accountId: string, blockId: number) {
    const [row] = await db.query<Record<string, number | null>>(
      `SELECT grid_meter_id, solar_meter_id, genset_meter_id, inverter_meter_id, load_meter_id,
              grid_tariff_id, solar_tariff_id, genset_tariff_id, inverter_tariff_id, load_tariff_id
       FROM energy_dashboard_configs WHERE building_block_id = $1 AND account_id = $2`,
      [blockId, accountId],
    );
    return row;
  },

  /**
   * The tariff records of the block's config sources that take effect before `end`, oldest first
   * per source. A tariff deleted since still prices its part: a past bill does not change.
   */
  sourceTariffHistory(db: Executor, accountId: string, blockId: number, end: Date) {
    return db.query<{ source: string; tariff_id: number | null; effective_from: Date | null }>(
      `SELECT h.source, h.tariff_id, h.effective_from
       FROM tariff_history h
       WHERE h.account_id = $1 AND h.building_block_id = $2 AND (h.effective_from IS NULL OR h.effective_from < $3)
       ORDER BY h.id`,
      [accountId, blockId, end],
    );
  },

  /** The organization's transitions not applied yet that take effect before `end`. */
  pendingTransitions(db: Executor, accountId: string, end: Date) {
    return db.query<{ predecessor_id: number; successor_id: number; effective_from: Date }>(
      `SELECT predecessor_id, successor_id, effective_from FROM tariff_transitions
       WHERE account_id = $1 AND applied_at IS NULL AND effective_from < $2`,
      [accountId, end],
    );
  },
};
