import { mapConcurrently } from '../../../src/modules/timeseries/map-concurrently.ts';
import { api, read } from '../api/client.ts';
import {
  type BuildingEnergyRow,
  type DashboardConfig,
  ENERGY_SOURCES,
  type EnergyBucket,
  type EnergySource,
  type Meter,
} from '../api/models.ts';
import { hasElectricityData } from '../lib/meters.ts';
import type { BucketUnit, Range } from '../lib/ranges.ts';
import { instantOf, isoMonth, localParts } from '../lib/time.ts';

/**
 * Energy profiles in calendar buckets, for a meter and for a building's sources.
 *
 * ADAPTER, until the service has `group_by`/`tz` on energy-profile and
 * `GET /api/v1/building_blocks/:id/energy-profile` (extensions §11.7). Meanwhile:
 * - a meter's profile is asked in fixed buckets aligned on the range's local midnight
 *   (bucket_minutes 60 for hours, 1440 for days), and months are added up here from days;
 * - a building's profile adds up the per-meter profiles of its dashboard config's meters.
 * Once §11.7 is there, each function becomes one request (and buildingEnergyProfile no longer
 * needs the config and meters the page passes):
 *   meterEnergyProfile:   GET /api/v1/timeseries/electricity/energy-profile
 *                         ?account_id&meter_sn&start&end&group_by=<range.unit>&tz=<range.tz>
 *   buildingEnergyProfile: GET /api/v1/building_blocks/{id}/energy-profile
 *                         ?account_id&start&end&group_by=<range.unit>&tz=<range.tz>
 * (regenerate src/api/schema.d.ts first so that both are typed).
 */

const BUCKET_MINUTES: Record<BucketUnit, number> = { hour: 60, day: 1440, month: 1440 };

/** Daily buckets added up into the local calendar months they start in. */
function byMonth(days: EnergyBucket[], tz: string): EnergyBucket[] {
  const months = new Map<string, EnergyBucket>();
  for (const day of days) {
    const parts = localParts(Date.parse(day.ts), tz);
    const label = isoMonth(parts);
    const month = months.get(label);
    if (!month) {
      const ts = new Date(instantOf({ year: parts.year, month: parts.month, day: 1 }, tz)).toISOString();
      months.set(label, { ...day, ts, label });
      continue;
    }
    month.import_kwh += day.import_kwh;
    month.export_kwh += day.export_kwh;
    month.net_kwh += day.net_kwh;
    month.kvarh += day.kvarh;
  }
  return [...months.values()];
}

export async function meterEnergyProfile(accountId: string, meterSn: string, range: Range): Promise<EnergyBucket[]> {
  const buckets = await read<EnergyBucket[]>(
    api.GET('/api/v1/timeseries/electricity/energy-profile', {
      params: {
        query: {
          account_id: accountId,
          meter_sn: meterSn,
          start: range.start,
          end: range.end,
          bucket_minutes: BUCKET_MINUTES[range.unit],
        },
      },
    }),
  );
  return range.unit === 'month' ? byMonth(buckets, range.tz) : buckets;
}

/** What the page knows already: the block's dashboard config and the organization's meters. */
export interface KnownSources {
  config: DashboardConfig;
  meters: ReadonlyMap<number, Meter>;
}

/** The configured sources' meters that have electricity data. */
async function sourceMeters(accountId: string, { config, meters }: KnownSources) {
  const configured = ENERGY_SOURCES.flatMap((source) => {
    const id = config[`${source}_meter_id`];
    return id === null ? [] : [{ source, id }];
  });
  const found = await Promise.all(
    configured.map(async ({ source, id }) => ({
      source,
      meter:
        meters.get(id) ??
        (await read<Meter>(
          api.GET('/api/v1/meters/{id}', { params: { path: { id }, query: { account_id: accountId } } }),
        )),
    })),
  );
  return found.filter(({ meter }) => hasElectricityData(meter));
}

/** known: used until the building endpoint is there (the switch drops it). */
export async function buildingEnergyProfile(
  accountId: string,
  _blockId: number,
  range: Range,
  known: KnownSources,
): Promise<BuildingEnergyRow[]> {
  const meters = await sourceMeters(accountId, known);
  const profiles = await mapConcurrently(meters, 3, ({ meter }) =>
    meterEnergyProfile(accountId, meter.meter_sn, range),
  );
  const rows = new Map<string, BuildingEnergyRow>();
  profiles.forEach((buckets, i) => {
    const source: EnergySource = meters[i]!.source;
    for (const { ts, label, import_kwh, export_kwh, net_kwh } of buckets) {
      let row = rows.get(ts);
      if (!row) {
        row = { ts, ...(label ? { label } : {}), sources: {} };
        rows.set(ts, row);
      }
      row.sources[source] = { import_kwh, export_kwh, net_kwh };
    }
  });
  return [...rows.values()].sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
}
