import { setImmediate as nextRound } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METER_WRITE_LOCK } from '../../src/modules/timeseries/readings.repository.ts';
import { directUrl } from '../helpers/database-url.ts';
import { failure } from '../helpers/envelopes.ts';
import type { TestUser } from '../helpers/factories.ts';
import { onPostgres, startRaceWorld } from '../helpers/races.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { insertMeter, storedReadings, TIMESERIES } from '../helpers/timeseries-factories.ts';

// A write that PostgreSQL ends as a deadlock (two transactions each waiting for a lock the other
// holds) wrote nothing, and the same request again may pass: 503 with Retry-After, not 500. Here
// the other transaction is a client of the database's own, taking the meters' write locks in the
// order opposite to the service's.

let t: TestApp;
let owner: TestUser;
let accountId: string;
beforeAll(async () => {
  ({ t, owner, accountId } = await startRaceWorld());
});
afterAll(async () => t.close());

const advisoryLocksWaiting = async () =>
  (
    await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
    )
  )[0]!.n;

describe.runIf(onPostgres)('a write that the database ends as a deadlock', () => {
  it('answers 503 with Retry-After, and stores nothing of it', async () => {
    const [first, second] = [await insertMeter(t.db, accountId), await insertMeter(t.db, accountId)];
    const other = new pg.Client({ connectionString: directUrl(t.databaseUrl!) });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1, $2)', [METER_WRITE_LOCK, second.id]);
      const csv = [
        'meter_sn,ts,import_kwh',
        `${first.meter_sn},2026-10-01T00:00:00Z,1`,
        `${second.meter_sn},2026-10-01T00:00:00Z,1`,
      ];
      const posting = t.app.inject({
        method: 'POST',
        url: `${TIMESERIES}/readings`,
        query: { account_id: accountId },
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/csv' },
        payload: csv.join('\n'),
      });
      // The service holds the first meter's lock and waits for the second's; then the other waits for the first's.
      while ((await advisoryLocksWaiting()) === 0) await nextRound();
      const locking = other.query('SELECT pg_advisory_xact_lock($1, $2)', [METER_WRITE_LOCK, first.id]);
      const reply = await posting;
      await locking;
      expect([reply.statusCode, reply.headers['retry-after'], reply.json()]).toEqual([
        503,
        '1',
        failure(
          'Service unavailable',
          'Another write needed the same records at the same time; nothing was written, retry shortly',
          'DATABASE_UNAVAILABLE',
        ),
      ]);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    expect([await storedReadings(t.db, first.id), await storedReadings(t.db, second.id)]).toEqual([[], []]);
  });
});
