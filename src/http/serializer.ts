import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { project, type ResponseShape, responseShape } from './response-shape.ts';

// The JSON of frozen data (what the read cache hands out) never changes: it is written once per
// shape it is written in.
const jsonOfFrozen = new WeakMap<ResponseShape, WeakMap<object, string>>();
/** Replies whose schema declares no shape: written whole. */
const WHOLE: ResponseShape = { open: true };

/**
 * Data written as JSON already: what is kept of a large answer (a profile) is one string, which
 * costs the garbage collector nothing, instead of thousands of objects it would go through again
 * and again.
 */
export class JsonText {
  /** The JSON as a string, or as its UTF-8 bytes (written so, it leaves no large string behind). */
  constructor(readonly json: string | Buffer) {}
}

function dataJson(data: unknown, shape: ResponseShape): string {
  if (data instanceof JsonText) return data.json.toString();
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
