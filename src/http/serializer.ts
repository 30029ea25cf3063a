import type { FastifyInstance } from 'fastify';

// The JSON of frozen data (what the read cache hands out) never changes: it is written once.
const jsonOfFrozen = new WeakMap<object, string>();

/**
 * Data written as JSON already: what is kept of a large answer (a profile) is one string, which
 * costs the garbage collector nothing, instead of thousands of objects it would go through again
 * and again.
 */
export class JsonText {
  constructor(readonly json: string) {}
}

function dataJson(data: unknown): string {
  if (data instanceof JsonText) return data.json;
  if (data === null || typeof data !== 'object' || !Object.isFrozen(data)) return JSON.stringify(data);
  let json = jsonOfFrozen.get(data);
  if (json === undefined) {
    json = JSON.stringify(data);
    jsonOfFrozen.set(data, json);
  }
  return json;
}

function isEnvelope(
  payload: unknown,
): payload is { success: boolean; message: unknown; data: unknown; count?: number } {
  return typeof payload === 'object' && payload !== null && 'success' in payload && 'data' in payload;
}

/**
 * Serializes the envelope as JSON.stringify would (same keys, same order), reusing the JSON of
 * cached, frozen data: a cached tariff read then costs no serialization.
 */
export function serializeReply(payload: unknown): string {
  if (!isEnvelope(payload) || Object.keys(payload).some((k) => !['success', 'message', 'data', 'count'].includes(k))) {
    return JSON.stringify(payload);
  }
  const count = payload.count === undefined ? '' : `,"count":${JSON.stringify(payload.count)}`;
  return `{"success":${payload.success},"message":${JSON.stringify(payload.message)},"data":${dataJson(payload.data)}${count}}`;
}

/**
 * Every reply is written by serializeReply. The routes' response schemas document the answers
 * (and the tests hold every answer to them); they do not serialize (docs/decisions.md).
 */
export function registerReplySerializer(app: FastifyInstance): void {
  app.setReplySerializer(serializeReply);
  app.setSerializerCompiler(() => serializeReply);
}
