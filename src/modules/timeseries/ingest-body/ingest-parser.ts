import { Worker } from 'node:worker_threads';
import { errorCodes } from 'fastify';
import { type Admission, ANY_ORGANIZATION } from '../../../http/admission.ts';
import { AppError } from '../../../http/errors.ts';
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
export type WorkerRequest =
  | { id: number; bytes: Uint8Array }
  | { id: number; readings: IngestReadings; meter: IngestMeter };

/** The worker's answer to one request: the parsed body or the prepared batch, or the refusal it threw. */
export interface WorkerReply {
  id: number;
  parsed?: ParsedIngest;
  prepared?: PreparedData;
  failure?:
    | { app: Pick<AppError, 'statusCode' | 'envelopeMessage' | 'detail' | 'headers'> }
    | { fastify: string }
    | { unexpected: string };
}

function thrownAgain(failure: NonNullable<WorkerReply['failure']>): Error {
  if ('app' in failure) {
    const { statusCode, envelopeMessage, detail, headers } = failure.app;
    return new AppError(statusCode, envelopeMessage, detail, headers);
  }
  if ('fastify' in failure) {
    const FastifyError = errorCodes[failure.fastify as keyof typeof errorCodes];
    return new (FastifyError as new () => Error)();
  }
  return new Error(`The ingest worker failed: ${failure.unexpected}`);
}

/** The worker's module, run from the sources (tests, benchmarks) through tsx, compiled as it is. */
function startWorker(): Worker {
  const entry = new URL(import.meta.url.endsWith('.ts') ? './ingest-worker.ts' : './ingest-worker.js', import.meta.url);
  if (entry.pathname.endsWith('.js')) return new Worker(entry);
  const load = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(load, { eval: true });
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
  let worker: Worker | undefined;
  let nextId = 0;
  const replies = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();

  /** The worker stopped: what it was parsing fails, and the next body starts another. */
  function stopped(which: Worker, error: Error): void {
    if (worker === which) worker = undefined;
    for (const { reject } of replies.values()) reject(error);
    replies.clear();
  }

  function running(): Worker {
    if (worker) return worker;
    const started = startWorker();
    started.unref();
    started.on('message', (reply: WorkerReply) => {
      const waiting = replies.get(reply.id);
      replies.delete(reply.id);
      if (reply.failure) waiting?.reject(thrownAgain(reply.failure));
      else waiting?.resolve(reply);
    });
    started.on('error', (error) => stopped(started, error));
    started.on('exit', (code) => stopped(started, new Error(`The ingest worker stopped (exit code ${code})`)));
    worker = started;
    return started;
  }

  function inWorker(request: WorkerRequest, transfer: ArrayBuffer[] = []): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      replies.set(request.id, { resolve, reject });
      running().postMessage(request, transfer);
    });
  }

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
          const reply = await inWorker({ id: nextId++, bytes }, [bytes.buffer]);
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
          const reply = await inWorker({ id: nextId++, readings, meter: { id, interval_minutes } });
          return preparedFrom(reply.prepared!);
        },
        abandoned,
      );
    },
    async close(): Promise<void> {
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}

export type IngestParser = ReturnType<typeof createIngestParser>;
