import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts';
import type { JsonText } from './serializer.ts';

/** The encodings a kept answer is sent in, preferred in this order when the client weighs them alike. */
const ENCODINGS = ['br', 'gzip'] as const;
export type KeptEncoding = (typeof ENCODINGS)[number] | 'identity';

/**
 * Brotli at quality 5 and gzip at level 6, once per kept result, off the event loop: the knees of
 * time against size (docs/decisions.md, "Kept answers sent as bytes made once").
 */
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const compressors: Record<Exclude<KeptEncoding, 'identity'>, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => gzipAsync(body, { level: 6 }),
};

/**
 * The encoding of the answer as the compression plugin chooses it: the client's accept-encoding
 * with its q-values (`*` and x-gzip read as gzip), identity when it names none of ours (or
 * none at all), or when the body is too small to be worth compressing.
 */
function encodingFor(request: FastifyRequest, size: number): KeptEncoding {
  const header = request.headers['accept-encoding'];
  if (header === undefined || request.headers['x-no-compression'] !== undefined) return 'identity';
  if (size < COMPRESSION_THRESHOLD_BYTES) return 'identity';
  const accepted = negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), [...ENCODINGS]);
  return (accepted as KeptEncoding | null) ?? 'identity';
}

/**
 * Answers whose data is kept as JSON text (profiles) are sent as bytes made once per kept result
 * and encoding: the envelope's UTF-8 bytes, and their brotli and gzip forms when a client first
 * accepts them. They live as long as the kept result (a WeakMap on it): a result computed anew
 * after its meters' readings changed is another object, with bytes of its own. Sent with their
 * Content-Encoding and Vary, so that the compression plugin leaves them as they are.
 * `onWrite` hears of each body made (the metric of kept bodies).
 */
export function createKeptAnswers(onWrite: (encoding: KeptEncoding) => void) {
  const bodies = new WeakMap<JsonText, Map<KeptEncoding, Promise<Buffer>>>();

  function bodyOf(data: JsonText, encoding: KeptEncoding): Promise<Buffer> {
    let made = bodies.get(data);
    if (!made) {
      made = new Map();
      bodies.set(data, made);
    }
    let body = made.get(encoding);
    if (!body) {
      body =
        encoding === 'identity'
          ? Promise.resolve(data.okBytes())
          : bodyOf(data, 'identity').then(compressors[encoding]);
      made.set(encoding, body);
      onWrite(encoding);
    }
    return body;
  }

  return {
    /** Sends ok(data) in the encoding the client accepts. */
    async send(request: FastifyRequest, reply: FastifyReply, data: JsonText): Promise<FastifyReply> {
      const identity = await bodyOf(data, 'identity');
      const encoding = encodingFor(request, identity.length);
      reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'accept-encoding');
      if (encoding === 'identity') return reply.send(identity);
      return reply.header('content-encoding', encoding).send(await bodyOf(data, encoding));
    },
  };
}

export type KeptAnswers = ReturnType<typeof createKeptAnswers>;
