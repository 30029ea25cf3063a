import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';

/** Debian's Mosquitto (apt-get install mosquitto): what `.ci/run` installs. */
export const MOSQUITTO = '/usr/sbin/mosquitto';

/**
 * A describe() that needs a Mosquitto broker: skipped with a warning outside CI when the binary is
 * missing; under CI=true one failing test says so instead.
 */
export function describeWithMosquitto(name: string, tests: () => void): void {
  const ready = existsSync(MOSQUITTO);
  if (!ready) {
    const missing = `Mosquitto is not installed at ${MOSQUITTO} (apt-get install -y mosquitto)`;
    if (process.env.CI === 'true') {
      it(`${name}: cannot run under CI`, () => {
        throw new Error(`${missing}: ${name} cannot run`);
      });
    } else {
      console.warn(`${missing}: ${name} skipped`);
    }
  }
  describe.runIf(ready)(name, tests);
}

/** A free TCP port of the loopback, as the system hands one out. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the broker says it runs; rejects with its output when it exits first. */
function running(broker: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/mosquitto version \S+ running/.test(output)) {
        broker.stderr!.off('data', onData);
        broker.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => reject(new Error(`Mosquitto exited (${code}) before running:\n${output}`));
    broker.stderr!.on('data', onData);
    broker.once('exit', onExit);
  });
}

/**
 * A Mosquitto broker of its own on a free port of the loopback, anonymous, persistence on in a
 * temporary directory (sessions and queued QoS 1 messages survive the clients' absence), run as the
 * current user (as root it would otherwise switch to a user that cannot write the directory).
 */
export async function startMosquitto() {
  const directory = await mkdtemp(join(tmpdir(), 'ums-mosquitto-'));
  const port = await freePort();
  const config = join(directory, 'mosquitto.conf');
  await writeFile(
    config,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence true',
      `persistence_location ${directory}/`,
      `user ${userInfo().username}`,
      'log_dest stderr',
      '',
    ].join('\n'),
  );
  const broker = spawn(MOSQUITTO, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  await running(broker);
  // Its log is not read after it runs: drained so that it never blocks on a full pipe.
  broker.stderr!.resume();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((resolve) => broker.once('exit', resolve));
      broker.kill('SIGTERM');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
