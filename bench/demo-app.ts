import { readFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/types.ts';
import { generateSigningKeys } from '../src/modules/auth/signing-keys.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';
import { startProcess, stopProcess } from './support.ts';

/** The demo seeded through an app of its own (the demo invoice is made through the API), closed after. */
export async function seedDemoWithApp(db: Database, databaseUrl: string, now = new Date()) {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MIN: '0' });
  const app = await buildApp({ config, db, keys: generateSigningKeys() });
  try {
    return await seedDemo({ app, db }, now);
  } finally {
    await app.close();
  }
}

/** The service on a real socket over a database holding the demo, and the demo user's access token. */
export async function serveDemo(db: Database, databaseUrl: string) {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MIN: '0' });
  const app = await buildApp({ config, db, keys: generateSigningKeys() });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base, token: await demoToken(base) };
}

async function demoToken(base: string): Promise<string> {
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
  });
  return ((await login.json()) as { data: { access_token: string } }).data.access_token;
}

/** The CPU time (user and system) a process has used so far, in ms, as Linux counts it (/proc, 100 ticks a second). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command's name.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The service as a process of its own (as it runs) over a database holding the demo, so that the
 * client's work (decompressing, parsing) does not share its thread; the demo user's access token,
 * and the CPU time the service has used so far.
 */
export async function serveDemoProcess(databaseUrl: string, port: number) {
  const base = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MIN: '0' };
  const child = await startProcess(['src/server.ts'], env, `${base}/readyz`);
  return { base, token: await demoToken(base), cpuMs: () => cpuMsOf(child.pid!), stop: () => stopProcess(child) };
}
