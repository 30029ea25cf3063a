import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
}, 120_000);

afterAll(async () => t?.close());

const FLOOD = 20;

/**
 * FLOOD requests from one address and then one from another, all sent at once; the answers, once
 * it is checked that the other address's was among the first three answered (in the order sent, it
 * would come last).
 */
async function answeredInTurn(request: { url: string; headers: Record<string, string> }) {
  const order: string[] = [];
  const send = (name: string, remoteAddress: string) =>
    t.app.inject({ method: 'GET', ...request, remoteAddress }).then((reply) => {
      order.push(name);
      return reply;
    });
  const replies = await Promise.all([
    ...Array.from({ length: FLOOD }, (_, i) => send(`flood ${i + 1}`, '10.0.0.1')),
    send('neighbour', '10.0.0.2'),
  ]);
  expect(order.indexOf('neighbour')).toBeLessThan(3);
  return replies;
}

describe('refusals one at a time in the process, client addresses in turn', () => {
  it("answers a 401 from another address before the flood's waiting ones", async () => {
    const replies = await answeredInTurn({
      url: '/api/v1/meters?account_id=00000000-0000-4000-8000-000000000000',
      headers: { authorization: 'Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' },
    });
    for (const reply of replies) {
      expect(reply.statusCode).toBe(401);
      expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(reply.json()).toEqual({
        success: false,
        message: 'Authentication required',
        error: 'Invalid bearer token',
      });
    }
  });
});

describe('scrapes of /metrics one at a time in the process, client addresses in turn', () => {
  it("renders a scrape from another address before the flood's waiting ones", async () => {
    const replies = await answeredInTurn({ url: '/metrics', headers: {} });
    for (const reply of replies) {
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(reply.body).toMatch(/^ums_metrics_scrapes\{state="running"\} 1$/m);
    }
  });
});

describe('404s of routes that do not exist in the same turns', () => {
  it("answers a 404 from another address before the flood's waiting ones", async () => {
    const replies = await answeredInTurn({ url: '/api/v1/no-such-route?x=1', headers: {} });
    for (const reply of replies) {
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toEqual({
        success: false,
        message: 'Not found',
        error: 'Route GET /api/v1/no-such-route not found',
      });
    }
  });
});
