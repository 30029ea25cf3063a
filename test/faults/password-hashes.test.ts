import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionGauge } from '../helpers/admission-gauges.ts';
import { failure } from '../helpers/envelopes.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** Slow enough (some 0.5 s a hash) that the requests below are all waiting while the first one's runs. */
const SLOW_HASHING = { memoryCost: 19_456, timeCost: 40, parallelism: 1 };
const credentials = { email: 'hashes@example.com', password: 'correct horse battery' };

let t: TestApp;

beforeAll(async () => {
  // Sign-ins have a scheduler of their own: one at a time here.
  t = await startTestApp({ SIGN_IN_CONCURRENCY: '1' }, { passwordHashing: SLOW_HASHING });
  const signup = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: credentials });
  expect(signup.statusCode).toBe(200);
}, 120_000);

afterAll(async () => t?.close());

const hashes = async () => [
  await admissionGauge(t.app, 'ums_sign_ins', 'running'),
  await admissionGauge(t.app, 'ums_sign_ins', 'waiting'),
];

/** Resolves once the gauge reads [running, waiting]. */
async function hashesReach(running: number, waiting: number) {
  while (JSON.stringify(await hashes()) !== JSON.stringify([running, waiting])) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('passwords hashed in turns of the sign-ins, client addresses in turn (one at a time)', () => {
  it("checks one password at a time, and another address's sign-in goes before the flood's waiting ones", async () => {
    const finished: string[] = [];
    const signIn = (name: string, remoteAddress: string, password: string) =>
      t.app
        .inject({ method: 'POST', url: '/api/v1/auth/login', remoteAddress, payload: { ...credentials, password } })
        .then((reply) => {
          finished.push(name);
          return reply;
        });

    const flood = [signIn('flood 1', '10.0.0.1', 'wrong password')];
    await hashesReach(1, 0);
    flood.push(signIn('flood 2', '10.0.0.1', 'wrong password'));
    await hashesReach(1, 1);
    flood.push(signIn('flood 3', '10.0.0.1', 'wrong password'));
    await hashesReach(1, 2);
    const neighbour = signIn('neighbour', '10.0.0.2', credentials.password);
    await hashesReach(1, 3);
    // The hashes take none of the expensive work's slots.
    expect([
      await admissionGauge(t.app, 'ums_expensive_requests', 'running'),
      await admissionGauge(t.app, 'ums_expensive_requests', 'waiting'),
    ]).toEqual([0, 0]);

    const [neighbourReply, ...floodReplies] = await Promise.all([neighbour, ...flood]);
    expect(finished).toEqual(['flood 1', 'neighbour', 'flood 2', 'flood 3']);
    expect(neighbourReply.statusCode).toBe(200);
    expect(neighbourReply.json().data.token_type).toBe('bearer');
    for (const reply of floodReplies) {
      expect(reply.statusCode).toBe(401);
      expect(reply.json()).toEqual(failure('Unauthorized', 'Invalid login credentials'));
    }
    expect(await hashes()).toEqual([0, 0]);
  });
});
