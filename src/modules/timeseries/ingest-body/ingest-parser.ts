import { type Admission, type Caller, LARGE_BODIES } from '../../../http/admission.ts';
import { createWorkerThread } from '../../../http/worker-thread.ts';
import { type PreparedData, type PreparedReadings, preparedFrom } from '../store-readings.ts';
import {
  type IngestMeter,
  type IngestReadings,
  type ParsedIngest,
  parseIngest,
  prepareIngest,
} from './parse-ingest.ts';

/**
 * Bodies up to this size are parsed on the main thread (a day of a meter's readings is a few kB):
 * 64 KiB, some 1,300 readings, take about 3 ms to parse and validate; 50,000 readings take 100 ms
 * and more, which would hold up every other request.
 */
export const IN_THREAD_MAX_BYTES = 64 * 1024;

/** Above this many readings a batch is prepared for storing (prepareIngest) in the worker. */
export const IN_THREAD_MAX_READINGS = 2000;

/** A body to parse, or parsed readings to prepare for their meter. */
export type WorkerRequest = { bytes: Uint8Array } | { readings: IngestReadings; meter: IngestMeter };

/** The worker's reply to one request: the parsed body or the prepared batch. */
export interface WorkerReply {
  parsed?: ParsedIngest;
  prepared?: PreparedData;
}

/**
 * Ingest bodies parsed and validated as the route would (parse-ingest.ts): small ones at once, large
 * ones in a worker thread of their own, so that a flood of 50,000-reading bodies leaves the main
 * thread to everyone else. A large body, once it has arrived, is admitted as work of LARGE_BODIES
 * (users in turn) before the worker parses it; so is a large batch's preparation for storing.
 */
export function createIngestParser(admission: Admission) {
  const worker = createWorkerThread(new URL('./ingest-worker.ts', import.meta.url), 'ingest worker');
  const inWorker = <T>(caller: Caller, request: WorkerRequest, transfer?: ArrayBuffer[]) =>
    admission.admit(caller, LARGE_BODIES, () => worker.call<T>(request, transfer));

  return {
    /** The body parsed; a large one is handed over to the worker, and not usable after. */
    async parse(caller: Caller, body: Buffer): Promise<ParsedIngest> {
      if (body.length <= IN_THREAD_MAX_BYTES) return parseIngest(body.toString('utf8'));
      // Handed over to the worker: as it is when the body owns its memory (a large body read whole
      // does), else a copy of its own (its bytes may share a pooled buffer).
      const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
      const bytes = owned ? new Uint8Array(body.buffer as ArrayBuffer) : new Uint8Array(body);
      const reply = await inWorker<WorkerReply>(caller, { bytes }, [bytes.buffer]);
      return reply.parsed!;
    },

    /** The readings as they are stored for the meter (prepareIngest): a large batch in the worker. */
    async prepare(caller: Caller, readings: IngestReadings, meter: IngestMeter): Promise<PreparedReadings> {
      if (readings.length <= IN_THREAD_MAX_READINGS) return prepareIngest(readings, meter);
      const { id, interval_minutes } = meter;
      const reply = await inWorker<WorkerReply>(caller, { readings, meter: { id, interval_minutes } });
      return preparedFrom(reply.prepared!);
    },
    close: () => worker.close(),
  };
}

export type IngestParser = ReturnType<typeof createIngestParser>;
