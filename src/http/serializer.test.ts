import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ok } from './envelope.ts';
import { createHttpApp } from './http-app.ts';
import { project, responseShape } from './response-shape.ts';
import { okEnvelope } from './responses.ts';
import { JsonText, serializeReply } from './serializer.ts';
import type { App } from './types.ts';

describe('reply serializer', () => {
  it('writes exactly what JSON.stringify writes, for any envelope or other payload', () => {
    const envelope = fc.record(
      { success: fc.boolean(), message: fc.option(fc.string()), data: fc.jsonValue(), count: fc.nat() },
      { requiredKeys: ['success', 'message', 'data'] },
    );
    fc.assert(
      fc.property(fc.oneof(envelope, fc.jsonValue()), (payload) => {
        expect(serializeReply(payload)).toBe(JSON.stringify(payload));
      }),
      { numRuns: 500 },
    );
  });

  it('reuses the JSON of frozen data, which cannot change', () => {
    const data = Object.freeze({ id: 1, created_at: new Date('2026-01-01T00:00:00Z'), items: Object.freeze([1, 2]) });
    const first = serializeReply({ success: true, message: null, data });
    expect(first).toBe(
      '{"success":true,"message":null,"data":{"id":1,"created_at":"2026-01-01T00:00:00.000Z","items":[1,2]}}',
    );
    expect(serializeReply({ success: true, message: 'again', data })).toBe(
      '{"success":true,"message":"again","data":{"id":1,"created_at":"2026-01-01T00:00:00.000Z","items":[1,2]}}',
    );
  });
});

describe('replies in the shape of their response schema', () => {
  const item = z.strictObject({ id: z.number(), tags: z.array(z.string()) });
  const schema = okEnvelope(
    z.strictObject({
      id: z.number(),
      created_at: z.string(),
      items: z.array(item),
      dso: z.strictObject({ id: z.number(), name: z.string() }).nullable(),
      either: z.union([z.strictObject({ a: z.number() }), z.strictObject({ b: z.number() })]),
      extra: z.record(z.string(), z.unknown()),
    }),
    'A record',
  );
  let app: App;
  let sent: unknown;
  beforeAll(async () => {
    app = await createHttpApp({ logLevel: 'silent', requestTimeoutS: 10, corsOrigins: [] });
    app.get('/shaped', { schema: { response: { 200: schema } } }, async () => sent);
    await app.ready();
  });
  afterAll(async () => app.close());

  it('drops the fields the schema does not declare, at every depth, and keeps the rest in order', async () => {
    sent = ok({
      id: 7,
      password_hash: 'secret',
      created_at: new Date('2026-01-01T00:00:00Z'),
      items: [
        { id: 1, tags: ['a'], account_id: 'x' },
        { id: 2, tags: [] },
      ],
      dso: { id: 1, name: 'Eskom', tz: 'Africa/Johannesburg' },
      either: { b: 2, c: 3 },
      extra: { anything: { goes: true } },
    });
    const res = await app.inject({ method: 'GET', url: '/shaped' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      '{"success":true,"message":null,"data":{"id":7,"created_at":"2026-01-01T00:00:00.000Z",' +
        '"items":[{"id":1,"tags":["a"]},{"id":2,"tags":[]}],"dso":{"id":1,"name":"Eskom"},"either":{"b":2},' +
        '"extra":{"anything":{"goes":true}}}}',
    );
  });

  it('drops them from frozen (cached) data too, which it writes once', async () => {
    sent = ok(
      Object.freeze({ id: 8, secret: 's', created_at: 'now', items: [], dso: null, either: { a: 1 }, extra: {} }),
    );
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ method: 'GET', url: '/shaped' });
      expect(res.json()).toEqual({
        success: true,
        message: null,
        data: { id: 8, created_at: 'now', items: [], dso: null, either: { a: 1 }, extra: {} },
      });
    }
  });

  it('returns a value the schema describes whole as it is, without copying it', () => {
    const value = { id: 1, tags: ['x'] };
    expect(project(value, responseShape(item))).toBe(value);
    expect(project([value], responseShape(z.array(item)))).toEqual([value]);
  });
});

describe('data written as JSON already', () => {
  it('is sent as the bytes serializeReply writes, whether written as a string or straight into its envelope', () => {
    const json = '[{"label":"Jänner","kwh":1.5}]';
    const written = JsonText.inOkEnvelope(Buffer.byteLength(json), (into, at) => into.write(json, at, 'utf8'));
    const expected = Buffer.from(serializeReply(ok(JSON.parse(json))));
    expect(written.okBytes().equals(expected)).toBe(true);
    expect(JsonText.of(json).okBytes().equals(expected)).toBe(true);
    expect(serializeReply(ok(written))).toBe(expected.toString());
    expect([written.json, written.size, JsonText.of(json).size]).toEqual([json, expected.length, json.length]);
  });
});
