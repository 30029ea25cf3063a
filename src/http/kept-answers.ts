import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AnswerEncoding, compressors, encodingFor, varyOnEncoding } from './compression.ts';
import type { JsonText } from './serializer.ts';

/** The bytes of one answer in each encoding, each made once when first asked for: the brotli and gzip forms from the identity's. */
function encodedBodies(identity: () => Buffer | Promise<Buffer>, onWrite?: (encoding: AnswerEncoding) => void) {
  const made = new Map<AnswerEncoding, Promise<Buffer>>();
  const bodyIn = (encoding: AnswerEncoding): Promise<Buffer> => {
    let body = made.get(encoding);
    if (!body) {
      body =
        encoding === 'identity' ? Promise.resolve().then(identity) : bodyIn('identity').then(compressors[encoding]);
      made.set(encoding, body);
      onWrite?.(encoding);
    }
    return body;
  };
  return bodyIn;
}

/** Sends JSON bytes made once, in the encoding the client accepts, with their Content-Encoding and Vary, so that the compression plugin leaves them as they are. */
async function sendEncoded(
  request: FastifyRequest,
  reply: FastifyReply,
  bodyIn: (encoding: AnswerEncoding) => Promise<Buffer>,
): Promise<FastifyReply> {
  const identity = await bodyIn('identity');
  const encoding = encodingFor(request, identity.length);
  varyOnEncoding(reply.header('content-type', 'application/json; charset=utf-8'));
  if (encoding === 'identity') return reply.send(identity);
  return reply.header('content-encoding', encoding).send(await bodyIn(encoding));
}

/**
 * Answers whose data is kept as JSON text (profiles) are sent as bytes made once per kept result
 * and encoding: the envelope's UTF-8 bytes, and their brotli and gzip forms when a client first
 * accepts them. They live as long as the kept result (a WeakMap on it): a result computed anew
 * after its meters' readings changed is another object, with bytes of its own.
 * `onWrite` hears of each body made (the metric of kept bodies).
 */
export function createKeptAnswers(onWrite: (encoding: AnswerEncoding) => void) {
  const bodies = new WeakMap<JsonText, (encoding: AnswerEncoding) => Promise<Buffer>>();

  return {
    /** Sends ok(data) in the encoding the client accepts. */
    send(request: FastifyRequest, reply: FastifyReply, data: JsonText): Promise<FastifyReply> {
      let bodyIn = bodies.get(data);
      if (!bodyIn) {
        bodyIn = encodedBodies(() => data.okBytes(), onWrite);
        bodies.set(data, bodyIn);
      }
      return sendEncoded(request, reply, bodyIn);
    },
  };
}

export type KeptAnswers = ReturnType<typeof createKeptAnswers>;

/**
 * A JSON document that does not change while the process runs (the OpenAPI document, the request
 * collection), sent as bytes made once per encoding: serializing and compressing the 630 kB
 * OpenAPI document for each request held the main thread some 15 ms, for anyone without a token.
 * Its bytes are made as the server starts listening, not by the first request that asks: making
 * the OpenAPI document holds the main thread some 200 ms, which every request in flight would wait
 * for. A document that fails to be made is not kept: the next request makes it again.
 */
export function createKeptDocument(app: FastifyInstance, make: () => unknown | Promise<unknown>) {
  let bodyIn: ((encoding: AnswerEncoding) => Promise<Buffer>) | undefined;
  const made = () =>
    Promise.resolve()
      .then(make)
      .then((document) => Buffer.from(JSON.stringify(document)))
      .catch((error: unknown) => {
        bodyIn = undefined;
        throw error;
      });
  const bodies = () => {
    bodyIn ??= encodedBodies(made);
    return bodyIn;
  };
  app.addHook('onListen', async () => {
    await bodies()('identity').catch((error: unknown) =>
      app.log.warn({ err: error }, 'A kept document could not be made; its first request makes it again'),
    );
  });
  return (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => sendEncoded(request, reply, bodies());
}
