import { JsonText } from '../../http/serializer.ts';
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

const [OPEN_BRACKET, CLOSE_BRACKET] = [0x5b, 0x5d];
const POINT_START = '{"ts":"';
const NEXT_POINT_START = `,${POINT_START}`;
/** How many pieces (some 64 points) are written into the answer's bytes at once. */
const PIECES_PER_WRITE = 256;
const AFTER_TS = '",';
/** `{"ts":"` + a time (always 24 characters: ISO 8601 in UTC with milliseconds) + `",`. */
const POINT_HEAD_BYTES = POINT_START.length + 24 + AFTER_TS.length;

/**
 * The JSON of an energy profile, written as UTF-8 bytes into its answer's: a point per bucket with energies (values: their
 * energyValuesJson by bucket index, undefined where none), or per bucket of the range with fill
 * (0 where none), ascending, each `{ts, label?, import_kwh, export_kwh, net_kwh, kvarh}`. Written
 * straight into one buffer of the exact size: a month's 1,440 points leave no string of 147 kB
 * for the garbage collector (a flood of profiles computed each request spent half its time there).
 * Times and energies are ASCII; a label is written as UTF-8.
 */
export function energyPointsJson(
  buckets: ProfileBuckets,
  values: readonly (string | undefined)[],
  fill: boolean,
): JsonText {
  const labels: (string | undefined)[] = [];
  let size = 2;
  let points = 0;
  for (let index = 0; index < buckets.count; index++) {
    const energies = values[index] ?? (fill ? NO_ENERGY : undefined);
    if (energies === undefined) continue;
    const label = buckets.label(index);
    const labelJson = label === undefined ? undefined : `"label":${JSON.stringify(label)},`;
    labels[index] = labelJson;
    size += (points++ > 0 ? 1 : 0) + POINT_HEAD_BYTES + energies.length;
    if (labelJson !== undefined) size += Buffer.byteLength(labelJson);
  }
  return JsonText.inOkEnvelope(size, (json, from) => {
    json[from] = OPEN_BRACKET;
    let at = from + 1;
    // The pieces of some points are joined and written in one call: a call for each piece (four a
    // point) took five times as long, and a string of some kB is gone at the next scavenge.
    const pieces: string[] = [];
    let withLabels = false;
    const writePieces = () => {
      at += json.write(pieces.join(''), at, withLabels ? 'utf8' : 'latin1');
      pieces.length = 0;
      withLabels = false;
    };
    for (let index = 0; index < buckets.count; index++) {
      const energies = values[index] ?? (fill ? NO_ENERGY : undefined);
      if (energies === undefined) continue;
      pieces.push(at > from + 1 || pieces.length > 0 ? NEXT_POINT_START : POINT_START, buckets.ts(index), AFTER_TS);
      const labelJson = labels[index];
      if (labelJson !== undefined) {
        pieces.push(labelJson);
        withLabels = true;
      }
      pieces.push(energies);
      if (pieces.length >= PIECES_PER_WRITE) writePieces();
    }
    if (pieces.length > 0) writePieces();
    json[at] = CLOSE_BRACKET;
  });
}
