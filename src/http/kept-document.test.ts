import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeptDocument } from './kept-answers.ts';

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A server whose /document is a kept document made by `make`, counting how often it was made; listening on a port, or for inject only. */
async function documentServer(make: () => unknown, { listen = false } = {}) {
  const app = Fastify();
  apps.push(app);
  let made = 0;
  const document = createKeptDocument(app, () => {
    made++;
    return make();
  });
  app.get('/document', (req, reply) => document(req, reply));
  if (listen) await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();
  const get = async (encoding?: string) => {
    const res = await app.inject({ url: '/document', headers: encoding ? { 'accept-encoding': encoding } : {} });
    return { res, made };
  };
  return { get };
}

describe('a kept document', () => {
  const big = { paths: Array.from({ length: 2000 }, (_, i) => ({ path: `/api/v1/things/${i}`, summary: 'A thing' })) };

  it('is serialized once and compressed once per encoding, and sent as JSON in the encoding asked for', async () => {
    const server = await documentServer(() => big);
    const plain = await server.get();
    expect(plain.res.statusCode).toBe(200);
    expect(plain.res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.res.headers.vary).toBe('accept-encoding');
    expect(plain.res.json()).toEqual(big);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const { res } = await server.get(encoding);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decode(res.rawPayload).toString('utf8'))).toEqual(big);
    }
    expect((await server.get('gzip')).made).toBe(1);
  });

  it('is made as the server starts listening: the first request finds it made', async () => {
    let makeCalled!: () => void;
    const madeOnListen = new Promise<void>((resolve) => {
      makeCalled = resolve;
    });
    const server = await documentServer(
      () => {
        makeCalled();
        return big;
      },
      { listen: true },
    );
    await madeOnListen;
    const { res, made } = await server.get('br');
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8'))).toEqual(big);
    expect(made).toBe(1);
  });

  it('is made again on the next request after it failed to be made', async () => {
    let fail = true;
    const server = await documentServer(() => {
      if (fail) throw new Error('not yet');
      return big;
    });
    expect((await server.get()).res.statusCode).toBe(500);
    fail = false;
    const { res, made } = await server.get('br');
    expect(res.statusCode).toBe(200);
    expect(made).toBe(2);
  });
});
