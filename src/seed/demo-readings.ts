import { notifyOtherProcesses } from '../db/read-cache.ts';
import type { Transaction } from '../db/types.ts';
import { metersRepository } from '../modules/meters/meters.repository.ts';
import { ReadingBatch } from '../modules/timeseries/readings.ts';
import { prepareReadings, storeReadings } from '../modules/timeseries/store-readings.ts';

const DAYS = 90;
const INTERVAL_MINUTES = 30;
const INTERVAL_MS = INTERVAL_MINUTES * 60_000;
const HOURS_PER_INTERVAL = INTERVAL_MINUTES / 60;
// The demo site is in South Africa (UTC+2 all year): the curves follow its local clock.
const LOCAL_OFFSET_HOURS = 2;
const SOLAR_PEAK_KW = 45;
const LOAD_POWER_FACTOR = 0.92;

/** Mulberry32: a small seeded generator, so the demo data is the same on every start. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** 0 before `from`, rising smoothly to 1 over `hours`. */
function rise(hour: number, from: number, hours: number): number {
  const x = Math.min(Math.max((hour - from) / hours, 0), 1);
  return x * x * (3 - 2 * x);
}

/** An office building: busy on weekdays from about 07:00 to 18:00, a lunch peak, quiet weekends. */
function loadKw(hour: number, weekday: boolean): number {
  const occupied = rise(hour, 6.5, 2) * (1 - rise(hour, 17, 2));
  const lunch = Math.exp(-((hour - 12.75) ** 2) / 0.5);
  return weekday ? 16 + 48 * occupied + 6 * lunch : 14 + 9 * occupied;
}

/** Clear-sky output from about 06:00 to 18:00, scaled by the day's cloud cover. */
function solarKw(hour: number, clearness: number): number {
  const sun = Math.sin((Math.PI * (hour - 6)) / 12);
  return sun > 0 ? SOLAR_PEAK_KW * sun ** 1.3 * clearness : 0;
}

/** The share of the site's load each tenant's own meter reads: what the landlord recovers from them. */
const TENANT_SHARES = [0.3, 0.18];

const kwh = (kw: number) => Math.round(kw * HOURS_PER_INTERVAL * 1000) / 1000;

const DAY_MS = 24 * 60 * 60_000;
const LOCAL_OFFSET_MS = LOCAL_OFFSET_HOURS * 3_600_000;

/** The instant the local day of `ms` begins. */
const localDayStart = (ms: number) => Math.floor((ms + LOCAL_OFFSET_MS) / DAY_MS) * DAY_MS - LOCAL_OFFSET_MS;

/**
 * Writes 30-minute readings from local midnight 90 days before now to the last whole interval before now, for the
 * demo's grid, solar and load meters (30-minute electricity meters of one organization), with
 * their rollups, and for the tenants' meters a share of the load each. The load follows an office's day and week; solar peaks at midday and what the
 * load does not use is exported through the grid meter; the load draws reactive energy.
 */
export async function seedDemoReadings(
  tx: Transaction,
  meters: { grid: number; solar: number; load: number; tenants?: readonly number[] },
  now: Date,
): Promise<void> {
  const owner = await metersRepository.find(tx, meters.grid);
  if (!owner) throw new Error(`demo meter ${meters.grid} not found`);
  const random = prng(20_261_122);
  const end = Math.floor(now.getTime() / INTERVAL_MS) * INTERVAL_MS;
  // From local midnight: the meters' first day is whole, so their first bill (from the local date of
  // the first reading, extensions §13.2) misses no reading.
  const start = localDayStart(end - DAYS * DAY_MS);
  const readings = new ReadingBatch();
  const add = (id: number, ts: Date, importKwh: number, exportKwh: number, kvarh: number) =>
    readings.append({ id, interval_minutes: INTERVAL_MINUTES }, ts.getTime(), importKwh, exportKwh, kvarh);

  let clearness = 1;
  for (let time = start; time < end; time += INTERVAL_MS) {
    const local = new Date(time + LOCAL_OFFSET_MS);
    const hour = local.getUTCHours() + local.getUTCMinutes() / 60;
    if (hour === 0 || time === start) clearness = random() < 0.25 ? 0.3 + 0.4 * random() : 0.85 + 0.15 * random();
    const weekday = local.getUTCDay() >= 1 && local.getUTCDay() <= 5;
    const load = loadKw(hour, weekday) * (0.93 + 0.14 * random());
    const solar = solarKw(hour, clearness) * (clearness < 0.8 ? 0.7 + 0.3 * random() : 1);
    const reactive = load * Math.tan(Math.acos(LOAD_POWER_FACTOR));
    const ts = new Date(time);
    add(meters.load, ts, kwh(load), 0, kwh(reactive));
    // The solar meter sees generation leave the inverter: it is the meter's export.
    add(meters.solar, ts, 0, kwh(solar), kwh(solar * 0.02));
    add(meters.grid, ts, kwh(Math.max(load - solar, 0)), kwh(Math.max(solar - load, 0)), kwh(reactive));
    meters.tenants?.forEach((id, i) => {
      const share = TENANT_SHARES[i % TENANT_SHARES.length]!;
      add(id, ts, kwh(load * share), 0, kwh(reactive * share));
    });
  }
  // Seeded before the server serves, of meters made in the same transaction: nothing can be kept
  // of them anywhere yet, but the writer tells, as every writer of readings does.
  await storeReadings(tx, owner.account_id, prepareReadings(readings), notifyOtherProcesses);
}
