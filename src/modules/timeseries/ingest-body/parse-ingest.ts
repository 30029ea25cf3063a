import { parseJsonBody } from '../../../http/json-body.ts';
import { zodValidatorCompiler } from '../../../http/validation.ts';
import { ReadingBatch, type ReadingColumns } from '../readings.ts';
import { type PreparedReadings, prepareReadings } from '../store-readings.ts';
import { type IngestBody, ingestBody } from '../timeseries.schemas.ts';

/** The readings of an ingest as columns, NaN where a reading left a value out. */
export type IngestReadings = Pick<
  ReadingColumns,
  'length' | 'ts' | 'importKwh' | 'exportKwh' | 'kvarh' | 'powerKw' | 'kva'
>;

/** An ingest's body, validated, its readings in columns: tens of thousands of readings cost no object each. */
export interface ParsedIngest {
  /** Left out by a gateway: its own organization's. */
  account_id: string | undefined;
  meter_sn: string;
  readings: IngestReadings;
}

/** The route's own body validation (validation.ts), outside the route. */
const validate = zodValidatorCompiler({
  schema: ingestBody,
  httpPart: 'body',
  method: 'POST',
  url: '/api/v1/timeseries/electricity/readings',
});

function columnsOf(readings: IngestBody['readings']): IngestReadings {
  const n = readings.length;
  const columns = {
    length: n,
    ts: new Float64Array(n),
    importKwh: new Float64Array(n),
    exportKwh: new Float64Array(n),
    kvarh: new Float64Array(n),
    powerKw: new Float64Array(n),
    kva: new Float64Array(n),
  };
  readings.forEach((reading, i) => {
    columns.ts[i] = reading.ts.getTime();
    columns.importKwh[i] = reading.import_kwh;
    columns.exportKwh[i] = reading.export_kwh ?? Number.NaN;
    columns.kvarh[i] = reading.kvarh ?? Number.NaN;
    columns.powerKw[i] = reading.power_kw ?? Number.NaN;
    columns.kva[i] = reading.kva ?? Number.NaN;
  });
  return columns;
}

/**
 * An ingest's body as every JSON body is parsed (json-body.ts) and validated (the route's schema),
 * with the same refusals, thrown, but the bounds on its values and keys (50,000 readings hold some
 * 300,000 values: the route's schema bounds them); its readings in columns. The same function runs on the main
 * thread for small bodies and in the ingest worker for large ones (ingest-parser.ts).
 */
/** No bound on an ingest body's values and keys but its schema's. */
const NO_BOUNDS = { values: Number.POSITIVE_INFINITY, keys: Number.POSITIVE_INFINITY };

export function parseIngest(text: string): ParsedIngest {
  const result = validate(parseJsonBody(text, NO_BOUNDS)) as { value?: IngestBody; error?: Error };
  if (result.error) throw result.error;
  const { account_id, meter_sn, readings } = result.value!;
  return { account_id, meter_sn, readings: columnsOf(readings) };
}

/** The meter an ingest's readings are stored for. */
export interface IngestMeter {
  id: number;
  interval_minutes: number;
}

/** The readings of an ingest as they are stored for their meter, values left out derived (ReadingBatch.append), ready to store. */
export function prepareIngest(readings: IngestReadings, meter: IngestMeter): PreparedReadings {
  const batch = new ReadingBatch(readings.length);
  const { ts, importKwh, exportKwh, kvarh, powerKw, kva } = readings;
  for (let i = 0; i < readings.length; i++) {
    batch.append(meter, ts[i]!, importKwh[i]!, exportKwh[i], kvarh[i], powerKw[i], kva[i]);
  }
  return prepareReadings(batch);
}
