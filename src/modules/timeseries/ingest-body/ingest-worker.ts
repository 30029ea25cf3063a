import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../../http/errors.ts';
import { dataOf } from '../store-readings.ts';
import type { WorkerReply, WorkerRequest } from './ingest-parser.ts';
import { parseIngest, prepareIngest } from './parse-ingest.ts';

/** A refusal as data that crosses threads: the parser's side throws it again (ingest-parser.ts). */
function failureOf(error: unknown): WorkerReply['failure'] {
  if (error instanceof AppError) {
    const { statusCode, envelopeMessage, detail, headers } = error;
    return { app: { statusCode, envelopeMessage, detail, headers } };
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')) return { fastify: code };
  return { unexpected: String((error as Error).stack ?? error) };
}

/**
 * The worker's nice value: on Linux a thread's own (setpriority of the calling thread), so the main
 * thread, which answers everyone, goes first when both want a core. Elsewhere it may be the
 * process's, or refused; either way the worker works as before.
 */
const NICENESS = 10;
try {
  setPriority(NICENESS);
} catch {
  // Not allowed here: the worker runs at the process's priority.
}

// The ingest worker: parses and validates large ingest bodies off the main thread, handing back
// their readings' columns without copying them, and prepares large batches to store.
parentPort!.on('message', (request: WorkerRequest) => {
  const { id } = request;
  try {
    if ('meter' in request) {
      const prepared = dataOf(prepareIngest(request.readings, request.meter));
      parentPort!.postMessage({ id, prepared } satisfies WorkerReply);
      return;
    }
    const { bytes } = request;
    const parsed = parseIngest(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    const { ts, importKwh, exportKwh, kvarh, powerKw, kva } = parsed.readings;
    const columns = [ts, importKwh, exportKwh, kvarh, powerKw, kva].map((column) => column.buffer as ArrayBuffer);
    parentPort!.postMessage({ id, parsed } satisfies WorkerReply, columns);
  } catch (error) {
    parentPort!.postMessage({ id, failure: failureOf(error) } satisfies WorkerReply);
  }
});
