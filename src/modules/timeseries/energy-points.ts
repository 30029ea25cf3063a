import type { ProfileBuckets } from './profile-buckets.ts';
import type { EnergyFlows } from './totals.ts';

/**
 * The JSON of a point's energies as the end of its object: `"import_kwh":…,"export_kwh":…,
 * "net_kwh":…,"kvarh":…}`. A point's JSON is `{"ts":…,` (and its label) followed by this, exactly
 * what JSON.stringify writes of the whole point; a month of readings keeps it for each of its
 * readings (a bucket of one reading has that reading's energies).
 */
export function energyValuesJson(flows: EnergyFlows): string {
  return JSON.stringify({
    import_kwh: flows.import_kwh,
    export_kwh: flows.export_kwh,
    net_kwh: flows.net_kwh,
    kvarh: flows.kvarh,
  }).slice(1);
}

const NO_ENERGY = energyValuesJson({ import_kwh: 0, export_kwh: 0, net_kwh: 0, kvarh: 0 });

/**
 * The JSON of an energy profile: a point per bucket with energies (values: their energyValuesJson
 * by bucket index, undefined where none), or per bucket of the range with fill (0 where none), ascending, each
 * `{ts, label?, import_kwh, export_kwh, net_kwh, kvarh}`. Written by adding to one string: a
 * month's 1,440 points in about half the time of joining them.
 */
export function energyPointsJson(
  buckets: ProfileBuckets,
  values: readonly (string | undefined)[],
  fill: boolean,
): string {
  let json = '[';
  for (let index = 0; index < buckets.count; index++) {
    const energies = values[index] ?? (fill ? NO_ENERGY : undefined);
    if (energies === undefined) continue;
    const label = buckets.label(index);
    json += `${json.length > 1 ? ',' : ''}{"ts":"${buckets.ts(index)}",`;
    if (label !== undefined) json += `"label":${JSON.stringify(label)},`;
    json += energies;
  }
  return `${json}]`;
}
