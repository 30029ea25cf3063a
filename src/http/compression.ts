import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build` puts Swagger UI's assets with their .br and .gz copies (the same from src/ and dist/). */
export const BUILT_SWAGGER_UI = fileURLToPath(new URL('../../dist/swagger-ui', import.meta.url));

/** The route of Swagger UI's assets (its scripts and styles), under the reference page at /docs. */
const SWAGGER_UI_ASSETS = '/docs/static/*';
/**
 * How long a browser keeps Swagger UI's assets without asking again (their ETag after): they change
 * only with the package, and a second visit of /docs then loads none of its 2 MB.
 */
const SWAGGER_UI_MAX_AGE = '1d';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Answers up to this size are compressed on the event loop, in one call (the plugin's
 * `syncThreshold`, its own default on 2 cores): at these sizes a trip to libuv's threadpool costs
 * more than the compression. Larger ones are compressed off it, in one call too (below).
 */
const SYNC_COMPRESSION_MAX_BYTES = 8192;

/** The encodings an answer is compressed with, preferred in this order when the client weighs them alike. */
const ENCODINGS = ['br', 'gzip'] as const;
export type AnswerEncoding = (typeof ENCODINGS)[number] | 'identity';

/** What the compression plugin compresses by its content type: text and JSON. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)/u;

/**
 * Brotli at quality 5 and gzip at level 6, in one call off the event loop: the knees of time
 * against size (docs/decisions.md, "Kept answers sent as bytes made once").
 */
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
export const compressors: Record<Exclude<AnswerEncoding, 'identity'>, (body: Buffer) => Promise<Buffer>> = {
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
export function encodingFor(request: FastifyRequest, size: number): AnswerEncoding {
  const header = request.headers['accept-encoding'];
  if (header === undefined || request.headers['x-no-compression'] !== undefined) return 'identity';
  if (size < COMPRESSION_THRESHOLD_BYTES) return 'identity';
  const accepted = negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), [...ENCODINGS]);
  return (accepted as AnswerEncoding | null) ?? 'identity';
}

/** Adds accept-encoding to the answer's Vary, keeping what is there (CORS's Origin). */
export function varyOnEncoding(reply: FastifyReply): FastifyReply {
  const vary = reply.getHeader('vary');
  if (vary === undefined) return reply.header('vary', 'accept-encoding');
  const names = String(vary)
    .toLowerCase()
    .split(/\s*,\s*/u);
  return names.includes('accept-encoding') || names.includes('*')
    ? reply
    : reply.header('vary', `${vary}, accept-encoding`);
}

/**
 * An answer held in memory (serialized JSON) larger than SYNC_COMPRESSION_MAX_BYTES, compressed in
 * one call off the event loop. The plugin would push it through a compression stream in 16 kB
 * chunks, each a trip to the threadpool and back: a year's building cost (125 kB) took 5 ms more
 * that way (docs/decisions.md, "Large answers compressed in one call").
 */
function compressLargeAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  const encoding = largeAnswerEncoding(request, reply, payload);
  if (encoding === 'identity') {
    done(null, payload);
    return;
  }
  const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(payload as string);
  compressors[encoding](bytes).then((body) => {
    varyOnEncoding(reply).header('content-encoding', encoding).header('content-length', body.length);
    done(null, body);
  }, done);
}

/** The encoding compressLargeAnswer sends the payload in: identity when it leaves it to the plugin or as it is. */
function largeAnswerEncoding(request: FastifyRequest, reply: FastifyReply, payload: unknown): AnswerEncoding {
  if (request.headers['accept-encoding'] === undefined) return 'identity';
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return 'identity';
  if (reply.hasHeader('content-encoding') || reply.statusCode === 206 || reply.hasHeader('content-range')) {
    return 'identity';
  }
  if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? 'application/json'))) return 'identity';
  const size = Buffer.byteLength(payload);
  return size <= SYNC_COMPRESSION_MAX_BYTES ? 'identity' : encodingFor(request, size);
}

/**
 * Answers of at least 1 KB are compressed with brotli or gzip when the client accepts one;
 * static files go as the build compressed them. To be registered before any route: the
 * compression hook is added to each route as it is declared.
 *
 * `reply.sendFile(file, directory)` sends file's .br or .gz copy when there is one and the client
 * accepts it (the console's files, and Swagger UI's from swaggerUiDirectory). Without that
 * directory (the service run from its sources, unbuilt) Swagger UI's own files are sent,
 * compressed on each request.
 */
export async function registerCompression(app: FastifyInstance, swaggerUiDirectory: string): Promise<void> {
  await app.register(compress, {
    encodings: [...ENCODINGS],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    syncThreshold: SYNC_COMPRESSION_MAX_BYTES,
    // Request bodies: the API reads JSON as sent, without a Content-Encoding.
    globalDecompression: false,
  });
  // Runs before the plugin's hook (a route's own hooks come after the application's), which then
  // leaves the answer as it is: it has its Content-Encoding.
  app.addHook('onSend', compressLargeAnswer);
  await app.register(fastifyStatic, { serve: false, preCompressed: true });
  if (!existsSync(swaggerUiDirectory)) return;
  app.addHook('onRoute', (route) => {
    if (route.url !== SWAGGER_UI_ASSETS) return;
    route.handler = (request, reply) =>
      reply.sendFile((request.params as { '*': string })['*'], swaggerUiDirectory, { maxAge: SWAGGER_UI_MAX_AGE });
  });
}
