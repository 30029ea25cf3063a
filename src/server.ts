import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { loadSigningKeys } from './modules/auth/signing-keys.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from './seed/demo.ts';

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config, 'the server');
  await migrate(db);
  const keys = loadSigningKeys(config.jwtPrivateKey, config.dataDir);
  const app = await buildApp({ config, db, keys });
  if (config.seedDemo) await seedDemo({ app, db });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const database = db.kind === 'embedded' ? `embedded (${config.dataDir})` : 'PostgreSQL';
  app.log.info(`Utility management service at ${address} (database: ${database}); API reference at ${address}/docs`);
  if (config.seedDemo) app.log.info(`Demo login: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  if (isLoopback(config.host)) app.log.info('Reachable from this machine only: HOST=0.0.0.0 serves the network too');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
