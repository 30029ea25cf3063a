import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AnswerEncoding, compressors, encodingFor, varyOnEncoding } from './compression.ts';
import type { JsonText } from './serializer.ts';

/**
 * Answers whose data is kept as JSON text (profiles) are sent as bytes made once per kept result
 * and encoding: the envelope's UTF-8 bytes, and their brotli and gzip forms when a client first
 * accepts them. They live as long as the kept result (a WeakMap on it): a result computed anew
 * after its meters' readings changed is another object, with bytes of its own. Sent with their
 * Content-Encoding and Vary, so that the compression plugin leaves them as they are.
 * `onWrite` hears of each body made (the metric of kept bodies).
 */
export function createKeptAnswers(onWrite: (encoding: AnswerEncoding) => void) {
  const bodies = new WeakMap<JsonText, Map<AnswerEncoding, Promise<Buffer>>>();

  function bodyOf(data: JsonText, encoding: AnswerEncoding): Promise<Buffer> {
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
      varyOnEncoding(reply.header('content-type', 'application/json; charset=utf-8'));
      if (encoding === 'identity') return reply.send(identity);
      return reply.header('content-encoding', encoding).send(await bodyOf(data, encoding));
    },
  };
}

export type KeptAnswers = ReturnType<typeof createKeptAnswers>;
