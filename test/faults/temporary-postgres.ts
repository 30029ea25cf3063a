import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';

function systemId(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, 'postgres']).toString().trim());
}

/** The server runs as the postgres system user: PostgreSQL refuses to run as root. */
function asPostgres(command: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  execFileSync(file, argv, { stdio: 'pipe' });
}

/** A throwaway PostgreSQL cluster of its own, which a test may stop and start at will. */
export function temporaryPostgres(port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'ums-pg-'));
  if (process.getuid?.() === 0) chownSync(dir, systemId('-u'), systemId('-g'));
  const data = join(dir, 'data');
  asPostgres(`${BIN}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-o', options, '-w', 'start', '-l', join(dir, 'log')]),
    stop: () => asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-m', 'fast', '-w', 'stop']),
    destroy() {
      try {
        cluster.stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}
