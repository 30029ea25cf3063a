import { Worker } from 'node:worker_threads';
import { errorCodes } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { type Admission, tooMany } from '../../../http/admission.ts';
import { AppError } from '../../../http/errors.ts';
import { type ParsedIngest, parseIngest } from './parse-ingest.ts';

/**
 * Bodies up to this size are parsed on the main thread (a day of a meter's readings is a few kB):
 * 64 KiB, some 1,300 readings, take about 3 ms to parse and validate; 50,000 readings take 100 ms
 * and more, which would hold up every other request.
 */
export const IN_THREAD_MAX_BYTES = 64 * 1024;

/**
 * Large bodies one user, and all users, may have on their way in (being received, waiting for the
 * worker or parsed) at once; past either, a large body is refused (429) before it is read: a flood
 * of 16 MiB bodies costs the main thread nothing but the refusals.
 */
export const LARGE_BODIES_PER_USER = 2;
export const LARGE_BODIES_TOTAL = 8;

export interface ParseRequest {
  id: number;
  bytes: Uint8Array;
}

/** The worker's answer to one ParseRequest: the parsed body, or the refusal it threw. */
export interface ParseReply {
  id: number;
  parsed?: ParsedIngest;
  failure?:
    | { app: Pick<AppError, 'statusCode' | 'envelopeMessage' | 'detail' | 'headers'> }
    | { fastify: string }
    | { unexpected: string };
}

function thrownAgain(failure: NonNullable<ParseReply['failure']>): Error {
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
 * thread to everyone else. The worker parses one body at a time; `parsing` (an admission of one
 * slot) decides whose goes next: users take turns, a user's second body waits for their first,
 * and one that waits too long is refused (429).
 */
export function createIngestParser({ parsing, registry }: { parsing: Admission; registry: Registry }) {
  let worker: Worker | undefined;
  let nextId = 0;
  const replies = new Map<number, { resolve: (parsed: ParsedIngest) => void; reject: (error: Error) => void }>();
  const largeBodies = new Map<string, number>();
  let largeBodiesTotal = 0;
  new Gauge({
    name: 'ums_ingest_large_bodies',
    help: 'Large readings bodies on their way in: being received, waiting for the ingest worker or parsed',
    registers: [registry],
    collect() {
      this.set(largeBodiesTotal);
    },
  });

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
    started.on('message', ({ id, parsed, failure }: ParseReply) => {
      const reply = replies.get(id);
      replies.delete(id);
      if (parsed) reply?.resolve(parsed);
      else reply?.reject(thrownAgain(failure!));
    });
    started.on('error', (error) => stopped(started, error));
    started.on('exit', (code) => stopped(started, new Error(`The ingest worker stopped (exit code ${code})`)));
    worker = started;
    return started;
  }

  function inWorker(body: Buffer): Promise<ParsedIngest> {
    const id = nextId++;
    // A copy of its own, handed over to the worker: the body's bytes may share a pooled buffer.
    const bytes = new Uint8Array(body);
    return new Promise((resolve, reject) => {
      replies.set(id, { resolve, reject });
      running().postMessage({ id, bytes } satisfies ParseRequest, [bytes.buffer]);
    });
  }

  return {
    /**
     * Before a body is read, from its declared length (none: chunked, counted as large): a release to
     * call once its request is answered, or 429 when the user or the process has too many large
     * bodies on their way in.
     */
    receive(userId: string, contentLength: string | undefined): () => void {
      if (contentLength !== undefined && Number(contentLength) <= IN_THREAD_MAX_BYTES) return () => {};
      const own = largeBodies.get(userId) ?? 0;
      if (own >= LARGE_BODIES_PER_USER) throw tooMany('of yours');
      if (largeBodiesTotal >= LARGE_BODIES_TOTAL) throw tooMany('on this server');
      largeBodies.set(userId, own + 1);
      largeBodiesTotal++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        largeBodiesTotal--;
        const left = largeBodies.get(userId)! - 1;
        if (left === 0) largeBodies.delete(userId);
        else largeBodies.set(userId, left);
      };
    },

    parse(userId: string, body: Buffer): Promise<ParsedIngest> {
      if (body.length <= IN_THREAD_MAX_BYTES) return Promise.resolve().then(() => parseIngest(body.toString('utf8')));
      return parsing.admit({ userId }, 'ingest', () => inWorker(body));
    },
    async close(): Promise<void> {
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}

export type IngestParser = ReturnType<typeof createIngestParser>;
