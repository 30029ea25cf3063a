import { setPriority } from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import { errorCodes } from 'fastify';
import { AppError } from './errors.ts';

/** A refusal as data that crosses threads: the caller's side throws it again. */
export type ThreadFailure =
  | { app: Pick<AppError, 'statusCode' | 'envelopeMessage' | 'detail' | 'headers' | 'code'> }
  | { fastify: string }
  | { unexpected: string };

/** What a worker answers to one message: its reply's fields, or the refusal its work threw. */
type Answer = { id: number; failure: ThreadFailure } | ({ id: number } & Record<string, unknown>);

function failureOf(error: unknown): ThreadFailure {
  if (error instanceof AppError) {
    const { statusCode, envelopeMessage, detail, headers, code } = error;
    return { app: { statusCode, envelopeMessage, detail, headers, code } };
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')) return { fastify: code };
  return { unexpected: String((error as Error).stack ?? error) };
}

function thrownAgain(failure: ThreadFailure, what: string): Error {
  if ('app' in failure) {
    const { statusCode, envelopeMessage, detail, headers, code } = failure.app;
    return new AppError(statusCode, envelopeMessage, detail, { headers, code });
  }
  if ('fastify' in failure) {
    const FastifyError = errorCodes[failure.fastify as keyof typeof errorCodes];
    return new (FastifyError as new () => Error)();
  }
  return new Error(`The ${what} failed: ${failure.unexpected}`);
}

/** A worker of the module at `entry` (a `.ts` URL), run from the sources (tests, benchmarks) through tsx, compiled as it is. */
function startWorker(entry: URL): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(entry.href.replace(/\.ts$/, '.js')));
  const load = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(load, { eval: true });
}

/**
 * A worker thread of the module at `entry` (one that calls `answerMessages`), started on first use
 * and again after it stops: `call` posts a message and resolves with the worker's reply to it, or
 * rejects with what its work threw (an AppError or Fastify's parse errors as themselves). A worker
 * that stops fails what it was doing. `what` names it in errors.
 */
export function createWorkerThread(entry: URL, what: string) {
  let worker: Worker | undefined;
  let nextId = 0;
  const replies = new Map<number, { resolve: (reply: Answer) => void; reject: (error: Error) => void }>();

  function stopped(which: Worker, error: Error): void {
    if (worker === which) worker = undefined;
    for (const { reject } of replies.values()) reject(error);
    replies.clear();
  }

  function running(): Worker {
    if (worker) return worker;
    const started = startWorker(entry);
    started.unref();
    started.on('message', (reply: Answer) => {
      const waiting = replies.get(reply.id);
      replies.delete(reply.id);
      if ('failure' in reply) waiting?.reject(thrownAgain(reply.failure as ThreadFailure, what));
      else waiting?.resolve(reply);
    });
    started.on('error', (error) => stopped(started, error));
    started.on('exit', (code) => stopped(started, new Error(`The ${what} stopped (exit code ${code})`)));
    worker = started;
    return started;
  }

  return {
    /** Posts `message` (with the buffers in `transfer` handed over) and resolves with the reply. */
    call<Reply>(message: object, transfer: ArrayBuffer[] = []): Promise<Reply> {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        replies.set(id, { resolve: resolve as (reply: Answer) => void, reject });
        running().postMessage({ ...message, id }, transfer);
      });
    },
    async close(): Promise<void> {
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}

/**
 * The worker's nice value: on Linux a thread's own (setpriority of the calling thread), so the main
 * thread, which answers everyone, goes first when both want a core. Elsewhere it may be the
 * process's, or refused; either way the worker works as before.
 */
const NICENESS = 10;

/**
 * In a worker thread: lowers its priority below the main thread's, then answers each message with
 * `work`'s reply (and the buffers it hands back), or with the refusal it threw.
 */
export function answerMessages<Message>(
  work: (message: Message) => { reply: Record<string, unknown>; transfer?: ArrayBuffer[] },
): void {
  try {
    setPriority(NICENESS);
  } catch {
    // Not allowed here: the worker runs at the process's priority.
  }
  parentPort!.on('message', (message: Message & { id: number }) => {
    const { id } = message;
    try {
      const { reply, transfer } = work(message);
      parentPort!.postMessage({ ...reply, id }, transfer ?? []);
    } catch (error) {
      parentPort!.postMessage({ id, failure: failureOf(error) });
    }
  });
}
