import { api, read } from '../api/client.ts';
import type { BuildingEnergyRow, EnergyBucket } from '../api/models.ts';
import type { Range } from '../lib/ranges.ts';

/** Energy profiles in the range's calendar buckets and zone (extensions §11.7), of a meter and of a building's sources. */

export function meterEnergyProfile(accountId: string, meterSn: string, range: Range): Promise<EnergyBucket[]> {
  return read<EnergyBucket[]>(
    api.GET('/api/v1/timeseries/electricity/energy-profile', {
      params: {
        query: {
          account_id: accountId,
          meter_sn: meterSn,
          start: range.start,
          end: range.end,
          group_by: range.unit,
          tz: range.tz,
        },
      },
    }),
  );
}

export function buildingEnergyProfile(accountId: string, blockId: number, range: Range): Promise<BuildingEnergyRow[]> {
  return read<BuildingEnergyRow[]>(
    api.GET('/api/v1/building_blocks/{id}/energy-profile', {
      params: {
        path: { id: blockId },
        query: { account_id: accountId, start: range.start, end: range.end, group_by: range.unit, tz: range.tz },
      },
    }),
  );
}
