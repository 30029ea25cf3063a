import { join } from 'node:path';
import type { Config } from '../config.ts';
import { openEmbeddedDatabase } from './embedded.ts';
import { openPostgresDatabase } from './postgres.ts';
import type { Database } from './types.ts';

/** PostgreSQL when DATABASE_URL is set, else the embedded database persisted under DATA_DIR. */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return openPostgresDatabase(config.databaseUrl, { statementTimeoutMs: config.statementTimeoutS * 1000 });
  return openEmbeddedDatabase({ dataDir: join(config.dataDir, 'pglite') });
}
