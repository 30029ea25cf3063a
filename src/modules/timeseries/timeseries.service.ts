import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Database, Transaction } from '../../db/types.ts';
import type { VersionedResults } from '../../db/versioned-results.ts';
import { type AccessGuard, assertOwned } from '../../http/access-guard.ts';
import { type Admission, LARGE_BODIES } from '../../http/admission.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest, forbidden, listProblems, notFound } from '../../http/errors.ts';
import { yieldToEventLoop } from '../../http/event-loop.ts';
import { addressedAccount, assertGatewayMeter } from '../../http/gateway-callers.ts';
import { JsonText } from '../../http/serializer.ts';
import { aggregatesRepository as aggregates, type BucketTotals, type TimeRange } from './aggregates.repository.ts';
import { meteredSources, sourcePoints } from './building-profile.ts';
import { csvOptions, readCsvBody } from './csv-body.ts';
import { energyPointsJson, energyValuesJson } from './energy-points.ts';
import type { IngestParser } from './ingest-body/ingest-parser.ts';
import type { IngestReadings, ParsedIngest } from './ingest-body/parse-ingest.ts';
import { mapConcurrently } from './map-concurrently.ts';
import { isWaterMeter, type MeterProblem, meterProblem, type Utility } from './meter-checks.ts';
import { createMeterMonths, type MonthOfReadings } from './meter-months.ts';
import { createMeterStores } from './meter-stores.ts';
import { type BucketFields, bucketPoints, groupingOf, type ProfileBuckets, profileBuckets } from './profile-buckets.ts';
import { type MeterRow, readingsRepository, type WriteCounts } from './readings.repository.ts';
import { isAlignedOnInterval, ReadingBatch } from './readings.ts';
import { registerReadsRepository } from './register-reads.repository.ts';
import { type MeterBatch, prepareReadings, storeReadings } from './store-readings.ts';
import type {
  BuildingProfileQuery,
  CsvReadingsQuery,
  EnergySumsBody,
  MeterRangeQuery,
  ProfileQuery,
} from './timeseries.schemas.ts';
import { ENERGY_FLOWS, type EnergyFlows, type EnergyTotals, POWER, type Report, VOLUME } from './totals.ts';
import { type RegisterReadsBody, WATER_COLUMNS, type WaterCsvQuery, type WaterReadingsBody } from './water.schemas.ts';
import { registerReadsWithUse, storeRegisterReads } from './water-register.ts';

const CONCURRENT_CHUNKS = 4;

export interface TimeseriesDeps {
  db: Database;
  guard: AccessGuard;
  /** Computed profiles and sums, and stores of readings, are admitted as work of the caller and the organization. */
  admission: Admission;
  cache: ReadCache;
  /** Profiles as JSON, kept until the readings of their meters change. */
  profiles: VersionedResults<JsonText>;
  /** A meter's totals over a range (null without readings), kept until its readings change. */
  sums: VersionedResults<EnergyTotals | null>;
  /** Meters' months of readings, kept until their readings change: what energy profiles are added up from. */
  months: VersionedResults<MonthOfReadings>;
  /** An ingest's readings as they are stored for their meter (ingest-parser.ts: a large batch off the main thread). */
  prepareIngest: IngestParser['prepare'];
}

function energySum(meterSn: string, range: { start: string; end: string }, totals: EnergyTotals | undefined) {
  return {
    meter_sn: meterSn,
    start: range.start,
    end: range.end,
    import_kwh: totals?.import_kwh ?? 0,
    export_kwh: totals?.export_kwh ?? 0,
    net_kwh: totals?.net_kwh ?? 0,
    kvarh: totals?.kvarh ?? 0,
    max_kva: totals?.max_kva ?? null,
    readings: totals?.readings ?? 0,
  };
}

const notOfUtility = (serial: string, utility: Utility) =>
  `Meter ${serial} is not ${utility === 'water' ? 'a water' : 'an electricity'} meter`;

/** 400 naming (`field(index)`) every reading whose ts is not the start of one of the meter's intervals. */
function assertAligned(
  count: number,
  tsOf: (index: number) => number,
  intervalMinutes: number,
  field: (index: number) => string,
) {
  const misaligned: string[] = [];
  for (let i = 0; i < count; i++) {
    if (!isAlignedOnInterval(tsOf(i), intervalMinutes)) {
      misaligned.push(`${field(i)}: Not the start of one of the meter's ${intervalMinutes}-minute intervals`);
    }
  }
  if (misaligned.length > 0) throw badRequest(listProblems(misaligned));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

export function createTimeseriesService({
  db,
  guard,
  admission,
  cache,
  profiles,
  sums,
  months,
  prepareIngest,
}: TimeseriesDeps) {
  const meterStores = createMeterStores();
  const meterMonths = createMeterMonths({ db, cache, months });
  /** Where the meters' readings are read: the replica, unless it has not replayed this process's known changes of them. */
  const readingsOf = (meterIds: readonly number[]) => db.reads(...meterIds.map(cacheKeys.meterReadings));

  /**
   * The meters with these serials, in the same order: 403 when one belongs to another
   * organization, else 404 when one is unknown, else 400 when one is not a meter of the utility.
   */
  async function metersOf(
    utility: Utility,
    accountId: string,
    serials: readonly string[],
    field: (index: number) => string,
    find: (serials: readonly string[]) => Promise<MeterRow[]> = (all) => readingsRepository.findMetersBySerial(db, all),
  ) {
    const found = new Map((await find(serials)).map((m) => [m.meter_sn, m]));
    const problems = serials.map((serial) => meterProblem(found.get(serial), accountId, utility));
    const first = (problem: MeterProblem) => problems.indexOf(problem);
    let index = first('foreign');
    if (index >= 0) throw forbidden(`Meter ${serials[index]} belongs to another organization`);
    index = first('unknown');
    if (index >= 0) throw notFound(`Meter ${serials[index]}`);
    index = first(`not-${utility}`);
    if (index >= 0) throw badRequest(`${field(index)}: ${notOfUtility(serials[index]!, utility)}`);
    return serials.map((serial) => found.get(serial)!);
  }

  /** The energy-sum of each meter, in the same order, by one set-based query. */
  async function energySums(accountId: string, meters: readonly MeterRow[], range: TimeRange) {
    const meterIds = meters.map((m) => m.id);
    const sums = await aggregates.sums(readingsOf(meterIds), accountId, meterIds, range);
    const asText = { start: range.start.toISOString(), end: range.end.toISOString() };
    return meters.map((m) => energySum(m.meter_sn, asText, sums.get(m.id)));
  }

  /** For a read: the meter from the read cache (a write to a meter drops it, see the meters service). */
  async function cachedMeter([serial]: readonly string[]): Promise<MeterRow[]> {
    const meter = await cache.get(cacheKeys.meterBySerial(serial!), async () => {
      const [row] = await readingsRepository.findMetersBySerial(db, [serial!]);
      return row;
    });
    return meter ? [meter] : [];
  }

  async function readableMeter(
    auth: AuthContext,
    query: { account_id: string; meter_sn: string },
    utility: Utility = 'electricity',
  ) {
    await guard.require(auth, query.account_id, 'read');
    const [meter] = await metersOf(utility, query.account_id, [query.meter_sn], () => 'meter_sn', cachedMeter);
    return meter!;
  }

  /** A store of the meters' readings in one transaction: the organization's work, after the meters' earlier stores. */
  function storeForMeters(
    auth: AuthContext,
    accountId: string,
    meterIds: readonly number[],
    work: (tx: Transaction) => Promise<WriteCounts>,
  ) {
    const store = () => guard.transaction(auth, accountId, 'write', work);
    // It waits for the meters' earlier stores before it is admitted, so that one waiting for a
    // meter holds no slot.
    return meterStores.run(meterIds, () => admission.admit(auth, accountId, store));
  }

  /**
   * Stores the meters' batches in one transaction: all or none. The meters are locked in the order
   * of their ids, in every process, so that two stores of the same meters never wait for each other.
   */
  function storeBatches(auth: AuthContext, accountId: string, batches: readonly MeterBatch[]) {
    const byMeter = [...batches].sort((a, b) => a.meterId - b.meterId);
    const meterIds = byMeter.map((batch) => batch.meterId);
    return storeForMeters(auth, accountId, meterIds, async (tx) => {
      const stored = { inserted: 0, updated: 0 };
      for (const { readings } of byMeter) {
        const counts = await storeReadings(tx, accountId, readings, cache);
        stored.inserted += counts.inserted;
        stored.updated += counts.updated;
      }
      return stored;
    });
  }

  /** The meter's totals over the range (null without readings), kept until its readings change. */
  function keptTotals(auth: AuthContext, meter: MeterRow, query: MeterRangeQuery) {
    const versions = [cache.version(cacheKeys.meterReadings(meter.id))];
    const key = JSON.stringify([meter.id, query.start, query.end]);
    return admission.admit(auth, query.account_id, () =>
      sums.get(versions, key, async () => {
        const found = await aggregates.sums(readingsOf([meter.id]), query.account_id, [meter.id], query);
        return found.get(meter.id) ?? null;
      }),
    );
  }

  /**
   * A profile of the query's range written as JSON by `write` from its buckets (`shape` names what
   * it writes), admitted as work of the caller and the organization. The result is kept until the
   * readings of one of the meters change (here, or in another process once its NOTIFY arrives):
   * dashboards ask for the same periods again and again. Admission comes before the kept result is
   * joined, never inside its computation: one caller's refusal is never another's. The caller has
   * checked access to the meters.
   * (Deleting a meter deletes its readings by a trigger, unannounced: none is needed, for its id
   * is then found no more, neither by serial nor in a config, and what was kept of it is never
   * asked for again.)
   */
  async function keptProfile(
    shape: unknown,
    auth: AuthContext,
    accountId: string,
    meterIds: readonly number[],
    query: BucketFields & TimeRange & { fill: string },
    write: (buckets: ProfileBuckets) => Promise<JsonText>,
  ) {
    const grouping = groupingOf(query);
    const versions = meterIds.map((id) => cache.version(cacheKeys.meterReadings(id)));
    const key = JSON.stringify([shape, meterIds, query.start, query.end, grouping, query.fill]);
    return admission.admit(auth, accountId, () =>
      profiles.get(versions, key, () => write(profileBuckets(grouping, query))),
    );
  }

  /**
   * The report's totals of the meters per bucket, added up by the database, shaped by `then` into
   * points (or their JSON's bytes already), written as JSON.
   */
  const fromDatabase =
    <T>(
      report: Report<T>,
      accountId: string,
      meterIds: readonly number[],
      range: TimeRange,
      then: (buckets: ProfileBuckets, rows: BucketTotals<T>[]) => unknown,
    ) =>
    async (buckets: ProfileBuckets) => {
      const rows =
        meterIds.length > 0
          ? await aggregates.profile(readingsOf(meterIds), report, accountId, meterIds, range, buckets.bucketing)
          : [];
      // Each step over a month's buckets holds the main thread about a millisecond: other
      // requests run in between, not after all three.
      await yieldToEventLoop(accountId);
      const points = then(buckets, rows);
      if (points instanceof JsonText) return points;
      await yieldToEventLoop(accountId);
      return JsonText.of(JSON.stringify(points));
    };

  /** The rows' energies as JSON (energyValuesJson) by bucket index. */
  function energiesByIndex(buckets: ProfileBuckets, rows: readonly BucketTotals<EnergyFlows>[]) {
    const values = new Array<string | undefined>(buckets.count);
    for (const row of rows) values[row.index] = energyValuesJson(row.totals);
    return values;
  }

  /** A water meter by id for the organization addressed: 403/404 as a record, 400 when it is not a water meter. */
  async function waterMeterById(auth: AuthContext, accountId: string, meterId: number, access: 'read' | 'write') {
    await guard.require(auth, accountId, access);
    const meter = assertOwned(await readingsRepository.findMeterById(db, meterId), accountId, 'Meter');
    if (!isWaterMeter(meter)) throw badRequest(notOfUtility(meter.meter_sn, 'water'));
    return meter;
  }

  const byIndex = <T>(rows: readonly BucketTotals<T>[]) => new Map(rows.map((row) => [row.index, row.totals]));

  /** The meter's readings, each on one of its intervals (400 naming each one that is not: `field(index)`), ready to store. */
  async function readingsBatch(
    auth: AuthContext,
    meter: MeterRow,
    readings: IngestReadings,
    field: (index: number) => string,
  ): Promise<MeterBatch> {
    assertAligned(readings.length, (i) => readings.ts[i]!, meter.interval_minutes, field);
    return { meterId: meter.id, readings: await prepareIngest(auth, readings, meter) };
  }

  /** A water meter's volumes (kL per interval), each at the start of one of its intervals, ready to store. */
  function volumesBatch(
    meter: MeterRow,
    volumes: readonly { ts: number; kl: number }[],
    field: (index: number) => string,
  ): MeterBatch {
    assertAligned(volumes.length, (i) => volumes[i]!.ts, meter.interval_minutes, field);
    const batch = new ReadingBatch(volumes.length);
    for (const { ts, kl } of volumes) batch.append(meter, ts, kl);
    return { meterId: meter.id, readings: prepareReadings(batch) };
  }

  return {
    /** Stores the readings; a batch whose request ends (its client gone, its deadline passed) while it waits for its turn is not stored. */
    async ingest(auth: AuthContext, body: ParsedIngest) {
      const accountId = addressedAccount(auth, body.account_id);
      await guard.require(auth, accountId, 'write');
      const [meter] = await metersOf('electricity', accountId, [body.meter_sn], () => 'meter_sn');
      assertGatewayMeter(auth, meter!);
      const batch = await readingsBatch(auth, meter!, body.readings, (i) => `readings.${i}.ts`);
      return storeBatches(auth, accountId, [batch]);
    },

    /**
     * Stores the readings of a CSV body (extensions §13.5), read with the query's options: every
     * line or none is read, and every meter and reading is checked before any is stored; then the
     * meters' readings are stored as the JSON form stores them, in one transaction.
     */
    async ingestCsv(auth: AuthContext, query: CsvReadingsQuery, bytes: Buffer) {
      const accountId = addressedAccount(auth, query.account_id);
      await guard.require(auth, accountId, 'write');
      const options = csvOptions(query);
      const byMeter = await admission.admit(auth, LARGE_BODIES, () => readCsvBody(bytes, options, accountId));
      const serials = [...byMeter.keys()];
      const meters = await metersOf('electricity', accountId, serials, () => 'meter_sn');
      for (const meter of meters) assertGatewayMeter(auth, meter);
      const batches: MeterBatch[] = [];
      for (const meter of meters) {
        const lines = byMeter.get(meter.meter_sn)!;
        batches.push(await readingsBatch(auth, meter, lines, (i) => `line ${lines.lines[i]}: ts`));
      }
      return storeBatches(auth, accountId, batches);
    },

    /** Stores a water meter's interval readings: their volume is kept where electricity's imported kWh are. */
    async storeWaterReadings(auth: AuthContext, body: WaterReadingsBody) {
      await guard.require(auth, body.account_id, 'write');
      const [meter] = await metersOf('water', body.account_id, [body.meter_sn], () => 'meter_sn');
      const volumes = body.readings.map((r) => ({ ts: r.ts.getTime(), kl: r.volume_kl }));
      return storeBatches(auth, body.account_id, [volumesBatch(meter!, volumes, (i) => `readings.${i}.ts`)]);
    },

    /**
     * Stores the water readings of a CSV body, read as the electricity route reads one with
     * volume_kl as the value column: every line or none, every meter and reading checked before
     * any is stored, all stored in one transaction.
     */
    async storeWaterCsv(auth: AuthContext, query: WaterCsvQuery, bytes: Buffer) {
      const accountId = addressedAccount(auth, query.account_id);
      await guard.require(auth, accountId, 'write');
      const options = { ...csvOptions(query), columns: query.columns ?? WATER_COLUMNS, valueName: 'volume_kl' };
      const byMeter = await admission.admit(auth, LARGE_BODIES, () => readCsvBody(bytes, options, accountId));
      const meters = await metersOf('water', accountId, [...byMeter.keys()], () => 'meter_sn');
      const batches = meters.map((meter) => {
        const lines = byMeter.get(meter.meter_sn)!;
        const volumes = Array.from({ length: lines.length }, (_, i) => ({ ts: lines.ts[i]!, kl: lines.importKwh[i]! }));
        return volumesBatch(meter, volumes, (i) => `line ${lines.lines[i]}: ts`);
      });
      return storeBatches(auth, accountId, batches);
    },

    /** Stores a water meter's register reads and the volumes of the intervals they change, spread between reads. */
    async storeRegisterReads(auth: AuthContext, meterId: number, body: RegisterReadsBody) {
      const meter = await waterMeterById(auth, body.account_id, meterId, 'write');
      return storeForMeters(auth, body.account_id, [meter.id], (tx) =>
        storeRegisterReads(tx, body.account_id, meter, body, cache),
      );
    },

    /** A water meter's register reads, oldest first, each with the kL used since the one before. */
    async registerReads(auth: AuthContext, meterId: number, query: { account_id: string }) {
      const meter = await waterMeterById(auth, query.account_id, meterId, 'read');
      return registerReadsWithUse(await registerReadsRepository.list(db, query.account_id, meter.id));
    },

    async volumeProfile(auth: AuthContext, query: ProfileQuery) {
      const meter = await readableMeter(auth, query, 'water');
      const write = fromDatabase(VOLUME, query.account_id, [meter.id], query, (buckets, rows) =>
        bucketPoints(buckets, byIndex(rows), query.fill === 'zero', (ts, label, totals) => ({
          ts,
          label,
          volume_kl: totals?.volume_kl ?? 0,
        })),
      );
      return keptProfile('volume', auth, query.account_id, [meter.id], query, write);
    },

    async volumeSum(auth: AuthContext, query: MeterRangeQuery) {
      const meter = await readableMeter(auth, query, 'water');
      const totals = await keptTotals(auth, meter, query);
      return {
        meter_sn: meter.meter_sn,
        start: query.start.toISOString(),
        end: query.end.toISOString(),
        volume_kl: totals?.import_kwh ?? 0,
        readings: totals?.readings ?? 0,
      };
    },

    /**
     * Buckets of minutes over a few months are added up from the meter's months of readings kept
     * in memory; others by the database.
     */
    async energyProfile(auth: AuthContext, query: ProfileQuery) {
      const meter = await readableMeter(auth, query);
      const fill = query.fill === 'zero';
      const database = fromDatabase(ENERGY_FLOWS, query.account_id, [meter.id], query, (buckets, rows) =>
        energyPointsJson(buckets, energiesByIndex(buckets, rows), fill),
      );
      const write = async (buckets: ProfileBuckets) => {
        const { bucketing } = buckets;
        const values =
          'minutes' in bucketing
            ? await meterMonths.energyValues(query.account_id, meter.id, query, bucketing.minutes)
            : null;
        if (!values) return database(buckets);
        // From months kept nothing above waited: the JSON is written in a turn of its own, so that
        // profiles that take their turns one after another let other requests run in between.
        await yieldToEventLoop(query.account_id);
        return energyPointsJson(buckets, values, fill);
      };
      return keptProfile('energy', auth, query.account_id, [meter.id], query, write);
    },

    async powerProfile(auth: AuthContext, query: ProfileQuery) {
      const meter = await readableMeter(auth, query);
      const write = fromDatabase(POWER, query.account_id, [meter.id], query, (buckets, rows) =>
        bucketPoints(buckets, byIndex(rows), query.fill === 'zero', (ts, label, power) => ({
          ts,
          label,
          avg_kw: power ? power.avg_kw : null,
          max_kw: power ? power.max_kw : null,
          avg_kva: power ? power.avg_kva : null,
          max_kva: power ? power.max_kva : null,
        })),
      );
      return keptProfile('power', auth, query.account_id, [meter.id], query, write);
    },

    /** Per bucket, the energy of each source of the block's dashboard config that has an electricity meter. */
    async buildingEnergyProfile(auth: AuthContext, blockId: number, query: BuildingProfileQuery) {
      await guard.require(auth, query.account_id, 'read');
      const sources = await meteredSources(db, query.account_id, blockId);
      const meterIds = sources.map((s) => s.meterId);
      // Each source's points name it: which source each meter is shapes the result.
      const shape = ['building', ...sources.map((s) => s.source)];
      const write = fromDatabase(ENERGY_FLOWS, query.account_id, meterIds, query, (buckets, rows) =>
        sourcePoints(buckets, rows, sources, query.fill === 'zero'),
      );
      return keptProfile(shape, auth, query.account_id, meterIds, query, write);
    },

    async latestPower(auth: AuthContext, query: MeterRangeQuery) {
      const meter = await readableMeter(auth, query);
      const latest = await aggregates.latest(readingsOf([meter.id]), query.account_id, meter.id, query);
      return latest ? { ts: latest.ts.toISOString(), power_kw: latest.power_kw, kva: latest.kva } : null;
    },

    /**
     * The totals are kept as profiles are (profileTotals): dashboards ask for the same ranges
     * again and again, each answer a turn of the main thread as a kept profile's. The meter's serial
     * is today's, from the read cache.
     */
    async energySum(auth: AuthContext, query: MeterRangeQuery) {
      const meter = await readableMeter(auth, query);
      const totals = await keptTotals(auth, meter, query);
      const range = { start: query.start.toISOString(), end: query.end.toISOString() };
      return energySum(meter.meter_sn, range, totals ?? undefined);
    },

    /**
     * One set-based query per chunk of max_meters_per_query meters, a few chunks at a time (a
     * request must not take every pooled connection); results in request order.
     */
    async energySums(auth: AuthContext, body: EnergySumsBody) {
      await guard.require(auth, body.account_id, 'read');
      return admission.admit(auth, body.account_id, async () => {
        const meters = await metersOf('electricity', body.account_id, body.meter_sns, (index) => `meter_sns.${index}`);
        const perChunk = await mapConcurrently(chunks(meters, body.max_meters_per_query), CONCURRENT_CHUNKS, (chunk) =>
          energySums(body.account_id, chunk, body),
        );
        return perChunk.flat();
      });
    },
  };
}

export type TimeseriesService = ReturnType<typeof createTimeseriesService>;
