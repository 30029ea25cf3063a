/** The baseline of the load benchmark: a bare Fastify route returning a constant JSON body. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { success: true, message: null, data: { status: 'ok' } };
app.get('/bare', async () => body);
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`bare server listening at ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
