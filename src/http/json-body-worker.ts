import { parseJsonBody } from './json-body.ts';
import { answerMessages } from './worker-thread.ts';

// The JSON body worker: parses the large JSON bodies of every route but the readings ingest (which
// has its own) off the main thread, handing back the value or the refusal, as parseJsonBody would.
answerMessages(({ bytes }: { bytes: Uint8Array }) => ({
  reply: { value: parseJsonBody(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) },
}));
