import { type Admission, ANY_ORGANIZATION } from '../../../http/admission.ts';
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

/**
 * Large bodies one user, and all users, may have on their way in at once (read, waiting for the
 * worker, parsed, stored: until answered); past them a large body waits unread (`receiving`).
 */
export const LARGE_BODIES_PER_USER = 2;
export const LARGE_BODIES_TOTAL = 8;
/**
 * How long a large body waits unread for one of those slots before its 429, as a share of the
 * request's timeout (the rest is left for reading it). Waiting costs nothing but an idle connection
 * whose client is held by TCP; each refusal costs a body read and dropped. A client that sends again
 * at once whatever Retry-After says is paced by it: on 2026-11-26 a wait of 2 s meant 22 refusals a
 * second from 50 connections, 55 MB/s of bodies read for nothing (docs/PERFORMANCE.md).
 */
export const LARGE_BODY_WAIT_SHARE = 0.5;

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
 * thread to everyone else.
 *
 * A large body is admitted by `receiving` before it is read (by its declared length; a body without
 * one counts as large) and holds its slot until its request is answered: a flood's bodies past its
 * user's or the process's slots wait unread, then are refused (429), at a cost to the main thread of
 * the refusal alone. A user's newest waiting body is read first: its client is the one most likely
 * still waiting for the answer (docs/decisions.md). The worker parses one body at a time: `parsing` (one slot) decides whose goes
 * next, users in turn, a user's second body after their first.
 */
export function createIngestParser({
  small,
  receiving,
  parsing,
}: {
  small: Admission;
  receiving: Admission;
  parsing: Admission;
}) {
  const worker = createWorkerThread(new URL('./ingest-worker.ts', import.meta.url), 'ingest worker');
  const inWorker = (request: WorkerRequest, transfer?: ArrayBuffer[]) => worker.call<WorkerReply>(request, transfer);

  return {
    /**
     * Before a body is read, from its declared length: resolves once it may be read, its slot held
     * until its connection closes or its answer is sent (`answered`): a small body's in `small` (its
     * user's request slots: a flood of small bodies would otherwise hold every database connection
     * with its stores), a large one's in `receiving`; 429 when it waited too long for one, and the
     * signal's reason when `answered` fires while it waits.
     */
    receive(userId: string, contentLength: string | undefined, answered: AbortSignal): Promise<void> {
      const isSmall = contentLength !== undefined && Number(contentLength) <= IN_THREAD_MAX_BYTES;
      return (isSmall ? small : receiving).hold({ userId }, isSmall ? ANY_ORGANIZATION : 'ingest', answered);
    },

    /**
     * The body parsed; a large one is handed over to the worker, and not usable after. A large one
     * whose request is `abandoned` while it waits for the worker is not parsed (the signal's reason).
     */
    parse(userId: string, body: Buffer, abandoned?: AbortSignal): Promise<ParsedIngest> {
      if (body.length <= IN_THREAD_MAX_BYTES) return Promise.resolve().then(() => parseIngest(body.toString('utf8')));
      // Handed over to the worker: as it is when the body owns its memory (a large body read whole
      // does), else a copy of its own (its bytes may share a pooled buffer).
      const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
      const bytes = owned ? new Uint8Array(body.buffer as ArrayBuffer) : new Uint8Array(body);
      return parsing.admit(
        { userId },
        'ingest',
        async () => {
          const reply = await inWorker({ bytes }, [bytes.buffer]);
          return reply.parsed!;
        },
        abandoned,
      );
    },

    /** The readings as they are stored for the meter (prepareIngest): a large batch in the worker, in turn with the bodies parsed (not when `abandoned` first). */
    async prepare(
      userId: string,
      readings: IngestReadings,
      meter: IngestMeter,
      abandoned?: AbortSignal,
    ): Promise<PreparedReadings> {
      if (readings.length <= IN_THREAD_MAX_READINGS) return prepareIngest(readings, meter);
      const { id, interval_minutes } = meter;
      return parsing.admit(
        { userId },
        'ingest',
        async () => {
          const reply = await inWorker({ readings, meter: { id, interval_minutes } });
          return preparedFrom(reply.prepared!);
        },
        abandoned,
      );
    },
    close: () => worker.close(),
  };
}

export type IngestParser = ReturnType<typeof createIngestParser>;
