import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'import-readings.ts');

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

/** The import command as its own process, on the PostgreSQL database at databaseUrl. */
export function startImport(args: string[], databaseUrl: string, dataDir: string): ImportProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PGAPPNAME: IMPORTER_NAME },
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

/** Runs the import command to its end. */
export async function runImport(args: string[], databaseUrl: string, dataDir: string) {
  const run = startImport(args, databaseUrl, dataDir);
  const exit = await run.exited;
  return { exit, ...run.output() };
}
