/**
 * The baselines of the load benchmark: a bare Fastify route returning a constant JSON body, and,
 * when SAME_BYTES_FILE names a file, a bare route sending its bytes as they are (the body of the
 * kept month profile, uncompressed): what sending those bytes costs without the service.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { success: true, message: null, data: { status: 'ok' } };
app.get('/bare', async () => body);
if (process.env.SAME_BYTES_FILE) {
  const bytes = readFileSync(process.env.SAME_BYTES_FILE);
  app.get('/same-bytes', async (_request, reply) => reply.type('application/json; charset=utf-8').send(bytes));
}
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`bare server listening at ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
