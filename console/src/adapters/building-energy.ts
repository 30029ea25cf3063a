import { api, read } from '../api/client.ts';
import type { BuildingEnergyRow, EnergyBucket } from '../api/models.ts';
import { type Range, readingsEnd } from '../lib/ranges.ts';

/**
 * Energy profiles in the range's calendar buckets and zone (extensions §11.7), of a meter and of a
 * building's sources, up to the start of the current hour (where the bills end).
 */

/** A range that starts in the current hour or later has no readings yet. */
const hasPast = (range: Range) => Date.parse(readingsEnd(range)) > Date.parse(range.start);

export async function meterEnergyProfile(accountId: string, meterSn: string, range: Range): Promise<EnergyBucket[]> {
  if (!hasPast(range)) return [];
  return read<EnergyBucket[]>(
    api.GET('/api/v1/timeseries/electricity/energy-profile', {
      params: {
        query: {
          account_id: accountId,
          meter_sn: meterSn,
          start: range.start,
          end: readingsEnd(range),
          group_by: range.unit,
          tz: range.tz,
        },
      },
    }),
  );
}

export async function buildingEnergyProfile(
  accountId: string,
  blockId: number,
  range: Range,
): Promise<BuildingEnergyRow[]> {
  if (!hasPast(range)) return [];
  return read<BuildingEnergyRow[]>(
    api.GET('/api/v1/building_blocks/{id}/energy-profile', {
      params: {
        path: { id: blockId },
        query: {
          account_id: accountId,
          start: range.start,
          end: readingsEnd(range),
          group_by: range.unit,
          tz: range.tz,
        },
      },
    }),
  );
}
