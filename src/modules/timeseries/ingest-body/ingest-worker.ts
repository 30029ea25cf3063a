import { answerMessages } from '../../../http/worker-thread.ts';
import { dataOf } from '../store-readings.ts';
import type { WorkerReply, WorkerRequest } from './ingest-parser.ts';
import { parseIngest, prepareIngest } from './parse-ingest.ts';

// The ingest worker: parses and validates large ingest bodies off the main thread, handing back
// their readings' columns without copying them, and prepares large batches to store.
answerMessages((request: WorkerRequest) => {
  if ('meter' in request) {
    return { reply: { prepared: dataOf(prepareIngest(request.readings, request.meter)) } satisfies WorkerReply };
  }
  const { bytes } = request;
  const parsed = parseIngest(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  const { ts, importKwh, exportKwh, kvarh, powerKw, kva } = parsed.readings;
  const columns = [ts, importKwh, exportKwh, kvarh, powerKw, kva].map((column) => column.buffer as ArrayBuffer);
  return { reply: { parsed } satisfies WorkerReply, transfer: columns };
});
