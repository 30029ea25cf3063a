import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ok } from './envelope.ts';
import { project, type ResponseShape, responseShape } from './response-shape.ts';

// The JSON of frozen data (what the read cache hands out) never changes: it is written once per
// shape it is written in.
const jsonOfFrozen = new WeakMap<ResponseShape, WeakMap<object, string>>();
/** Replies whose schema declares no shape: written whole. */
const WHOLE: ResponseShape = { open: true };

/**
 * Data written as JSON already: what is kept of a large answer (a profile) is one string, which
 * costs the garbage collector nothing, instead of thousands of objects it would go through again
 * and again; or the bytes of its whole ok envelope, written once (inOkEnvelope).
 */
export class JsonText {
  private constructor(
    private readonly text: string | null,
    private readonly envelope: Buffer | null,
  ) {}

  static of(json: string): JsonText {
    return new JsonText(json, null);
  }

  /**
   * Data whose JSON, `size` bytes of UTF-8, write(into, at) writes straight into the bytes of its
   * ok envelope: no string of it is made, and the answer is sent as written (okBytes).
   */
  static inOkEnvelope(size: number, write: (into: Buffer, at: number) => void): JsonText {
    const [head, tail] = okFrame();
    const bytes = Buffer.allocUnsafe(head.length + size + tail.length);
    head.copy(bytes, 0);
    write(bytes, head.length);
    tail.copy(bytes, head.length + size);
    return new JsonText(null, bytes);
  }

  /** The data's JSON. */
  get json(): string {
    if (this.text !== null) return this.text;
    const [head, tail] = okFrame();
    return this.envelope!.toString('utf8', head.length, this.envelope!.length - tail.length);
  }

  /** ok(data) as serializeReply writes it, in UTF-8. */
  okBytes(): Buffer {
    return this.envelope ?? Buffer.from(serializeReply(ok(this)));
  }

  /** Its length: of the JSON's characters, or of the envelope's bytes. */
  get size(): number {
    return this.text?.length ?? this.envelope!.length;
  }
}

let frame: [Buffer, Buffer] | undefined;
/** What serializeReply writes of ok(data) before and after data's JSON. */
function okFrame(): [Buffer, Buffer] {
  const mark = '\u0000';
  frame ??= serializeReply(ok(JsonText.of(mark)))
    .split(mark)
    .map((part) => Buffer.from(part)) as [Buffer, Buffer];
  return frame;
}

function dataJson(data: unknown, shape: ResponseShape): string {
  if (data instanceof JsonText) return data.json;
  if (data === null || typeof data !== 'object' || !Object.isFrozen(data)) return JSON.stringify(project(data, shape));
  let kept = jsonOfFrozen.get(shape);
  if (!kept) {
    kept = new WeakMap();
    jsonOfFrozen.set(shape, kept);
  }
  let json = kept.get(data);
  if (json === undefined) {
    json = JSON.stringify(project(data, shape));
    kept.set(data, json);
  }
  return json;
}

function isEnvelope(
  payload: unknown,
): payload is { success: boolean; message: unknown; data: unknown; count?: number } {
  return typeof payload === 'object' && payload !== null && 'success' in payload && 'data' in payload;
}

/**
 * Serializes the envelope as JSON.stringify would (same keys, same order) after dropping what the
 * response's shape does not declare, reusing the JSON of cached, frozen data: a cached tariff
 * read then costs no serialization. Data kept as JSON text (profiles) is written as it is.
 */
export function serializeReply(payload: unknown, shape: ResponseShape = WHOLE): string {
  if (!isEnvelope(payload) || Object.keys(payload).some((k) => !['success', 'message', 'data', 'count'].includes(k))) {
    return JSON.stringify(project(payload, shape));
  }
  const dataShape = shape.open ? shape : (shape.fields?.get('data') ?? WHOLE);
  const count = payload.count === undefined ? '' : `,"count":${JSON.stringify(payload.count)}`;
  return `{"success":${payload.success},"message":${JSON.stringify(payload.message)},"data":${dataJson(payload.data, dataShape)}${count}}`;
}

/**
 * Every reply is written by serializeReply, in the shape of its route's response schema for its
 * status: a field the schema does not declare is not sent, whatever a query selects. The schema
 * does not coerce or validate values; the tests hold every answer to it (docs/decisions.md).
 */
export function registerReplySerializer(app: FastifyInstance): void {
  // Not setReplySerializer: Fastify prefers it to every route's own serializer. A reply without a
  // schema for its status is written by JSON.stringify.
  app.setSerializerCompiler(({ schema }) => {
    const shape = responseShape(schema as z.ZodType);
    return (payload) => serializeReply(payload, shape);
  });
}
