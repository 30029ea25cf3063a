import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { databaseEnv } from '../helpers/database-url.ts';

const ROOT = join(import.meta.dirname, '..', '..');
// Compiled once for the run (test/global-setup.ts): a process starts without a TypeScript compiler.
const CLI = inject('compiledScripts').importCommand;
export const SERVER = inject('compiledScripts').server;

/** The application_name of the import command's database sessions, to find them in pg_stat_activity. */
export const IMPORTER_NAME = 'readings-import-under-test';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ImportProcess {
  child: ChildProcess;
  exited: Promise<Exit>;
  output(): { stdout: string; stderr: string };
}

/**
 * A script of the project (the import command by default) as its own process, with this
 * environment changed by env (a variable set to undefined is removed).
 */
function startScript(args: string[], env: Record<string, string | undefined>, script = CLI): ImportProcess {
  const merged = Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined);
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: Object.fromEntries(merged),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<Exit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** The import command as its own process, on the PostgreSQL database at databaseUrl. */
export function startImport(args: string[], databaseUrl: string, dataDir: string): ImportProcess {
  return startScript(args, { ...databaseEnv(databaseUrl), DATA_DIR: dataDir, PGAPPNAME: IMPORTER_NAME });
}

/** Runs a script to its end. */
export async function runScript(args: string[], env: Record<string, string | undefined>, script = CLI) {
  const run = startScript(args, env, script);
  const exit = await run.exited;
  return { exit, ...run.output() };
}

/** Runs the import command to its end. */
export async function runImport(args: string[], databaseUrl: string, dataDir: string) {
  return runScript(args, { ...databaseEnv(databaseUrl), DATA_DIR: dataDir, PGAPPNAME: IMPORTER_NAME });
}

/** The server as its own process: address resolves once it listens, and rejects if it exits before. */
export function startServer(env: Record<string, string | undefined>) {
  const server = startScript([], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, SERVER);
  const address = new Promise<string>((resolve, reject) => {
    const onOutput = () => {
      const listening = /service at (http:\/\/[\d.:]+)/.exec(server.output().stdout);
      if (listening) resolve(listening[1]!);
    };
    server.child.stdout?.on('data', onOutput);
    void server.exited.then((exit) =>
      reject(new Error(`the server exited (${JSON.stringify(exit)}): ${server.output().stderr}`)),
    );
  });
  return { server, address };
}
