import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeReply } from './serializer.ts';

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
