import { join } from 'node:path';
import type { Config } from '../config.ts';
import { openEmbeddedDatabase } from './embedded.ts';
import { openPostgresDatabase } from './postgres.ts';
import type { Database } from './types.ts';

/**
 * PostgreSQL when DATABASE_URL is set, else the embedded database persisted under DATA_DIR, which
 * this process then holds until close: owner says what the process is, for the message another
 * process opening it gets.
 */
export async function openDatabase(config: Config, owner?: string): Promise<Database> {
  if (config.databaseUrl)
    return openPostgresDatabase(config.databaseUrl, {
      statementTimeoutMs: config.statementTimeoutS * 1000,
      pooled: config.databasePooled,
      listenUrl: config.databaseListenUrl,
      replica: config.databaseReplicaUrl
        ? { url: config.databaseReplicaUrl, maxLagMs: config.replicaMaxLagMs }
        : undefined,
    });
  return openEmbeddedDatabase({ dataDir: join(config.dataDir, 'pglite'), owner });
}
