import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ok } from '../../src/http/envelope.ts';
import { notFound } from '../../src/http/errors.ts';
import { createHttpApp } from '../../src/http/http-app.ts';
import { failures, noContent, okEnvelope } from '../../src/http/responses.ts';
import type { App } from '../../src/http/types.ts';
import { checkResponses, takeMismatches } from './response-schemas.ts';

let app: App;
beforeAll(async () => {
  app = await createHttpApp({ logLevel: 'silent', requestTimeoutS: 30, corsOrigins: [] });
  checkResponses(app);
  const config = { public: true };
  const response = { 200: okEnvelope(z.strictObject({ a: z.number() }), 'An a'), ...failures({ 404: true }) };
  // Written as text: the serializer would drop the undeclared field of an object.
  app.get('/extra-key', { config, schema: { response } }, async (_req, reply) =>
    reply.type('application/json').send('{"success":true,"message":null,"data":{"a":1,"b":2}}'),
  );
  app.get('/wrong-type', { config, schema: { response } }, async () => ok({ a: 'one' }));
  app.get('/undeclared', { config, schema: { response } }, async () => {
    throw Object.assign(new Error('teapot'), { statusCode: 418 });
  });
  app.get('/declared-failure', { config, schema: { response } }, async () => {
    throw notFound('Record');
  });
  // Routes without a response schema too: the failure's code is checked against the documented list.
  app.get('/hidden-without-code', { config, schema: { hide: true } }, async (_req, reply) =>
    reply.code(409).type('application/json').send('{"success":false,"message":"Conflict","error":"Taken"}'),
  );
  app.get('/hidden-unknown-code', { config, schema: { hide: true } }, async (_req, reply) =>
    reply.code(404).type('application/json').send('{"success":false,"message":null,"error":"x","code":"CONFLICT"}'),
  );
  app.get('/empty', { config, schema: { response: { 204: noContent } } }, async (_req, reply) =>
    reply.code(204).send(),
  );
  await app.ready();
});
afterAll(async () => app.close());

async function mismatchesOf(url: string) {
  await app.inject({ method: 'GET', url });
  return takeMismatches();
}

describe('the check of answers against their response schemas', () => {
  it('reports a field the schema does not name, and a field of another type', async () => {
    expect(await mismatchesOf('/extra-key')).toEqual([expect.stringContaining('data.b: Unrecognized key "b"')]);
    expect(await mismatchesOf('/wrong-type')).toEqual([expect.stringContaining('data.a: Invalid input')]);
  });

  it('reports a status the route does not declare, and accepts a declared failure and a 204', async () => {
    expect(await mismatchesOf('/undeclared')).toEqual([
      'GET /undeclared answered 418, a status and type its route does not declare',
    ]);
    expect(await mismatchesOf('/declared-failure')).toEqual([]);
    expect(await mismatchesOf('/empty')).toEqual([]);
  });

  it('reports a failure without a code, or with a code not documented for its status', async () => {
    expect(await mismatchesOf('/hidden-without-code')).toEqual([
      'GET /hidden-without-code answered 409, a failure whose code undefined is not documented for it',
    ]);
    expect(await mismatchesOf('/hidden-unknown-code')).toEqual([
      'GET /hidden-unknown-code answered 404, a failure whose code CONFLICT is not documented for it',
    ]);
  });
});
