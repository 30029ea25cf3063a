import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conflict, invalid, notFound } from '../../../test/helpers/envelopes.ts';
import type { TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import {
  countViolations,
  onPostgres,
  ROUNDS,
  same,
  startRaceWorld,
  statuses,
  summary,
} from '../../../test/helpers/races.ts';
import { insertBuildingBlock, insertMeter, insertTariff } from '../../../test/helpers/sql-fixtures.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { OVERLAPPING_VERSIONS } from './tariff-rules.ts';

const base = '/api/v1/tariffs';

describe.runIf(onPostgres)('tariff rules under concurrent requests (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  beforeAll(async () => {
    ({ t, owner, accountId } = await startRaceWorld());
  });
  afterAll(async () => t.close());

  const put = (id: number, body: Record<string, unknown>) =>
    owner.client.put(`${base}/${id}`, { account_id: accountId, ...body });
  const remove = (id: number) => owner.client.delete(`${base}/${id}`, { account_id: accountId });

  async function tariffRow(id: number) {
    const [row] = await t.db.query<{
      tariff_type: string;
      tou_schedule_id: number | null;
      effective_from: string;
      effective_to: string;
    }>('SELECT tariff_type, tou_schedule_id, effective_from::text, effective_to::text FROM tariffs WHERE id = $1', [
      id,
    ]);
    return row!;
  }

  it('never stores a TIME_OF_USE tariff without a schedule when one update sets the type and another removes the schedule', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const tariffId = await insertTariff(t.db, accountId);
      const [setType, dropSchedule] = await Promise.all([
        put(tariffId, { tariff_type: 'TIME_OF_USE', tou_schedule_id: 3 }),
        put(tariffId, { tou_schedule_id: null }),
      ]);
      const row = await tariffRow(tariffId);
      // Whichever came first, the result is TIME_OF_USE with schedule 3; removing the schedule afterwards is a 400.
      if (setType.status !== 200) wrongAnswers.push(summary(setType));
      if (dropSchedule.status === 400) {
        if (!same(dropSchedule.body, invalid('tou_schedule_id: Required for a TIME_OF_USE tariff'))) {
          wrongAnswers.push(summary(dropSchedule));
        }
      } else if (dropSchedule.status !== 200) wrongAnswers.push(summary(dropSchedule));
      return row.tariff_type === 'TIME_OF_USE' && row.tou_schedule_id === null;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('answers the loser of two updates that move each end of the validity the rule message (400)', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const tariffId = await insertTariff(t.db, accountId);
      const replies = await Promise.all([
        put(tariffId, { effective_from: '2028-01-01' }),
        put(tariffId, { effective_to: '2026-12-31' }),
      ]);
      const row = await tariffRow(tariffId);
      const loser = replies.find((r) => r.status !== 200);
      if (
        !same(statuses(replies), [200, 400]) ||
        !same(loser?.body, invalid('effective_to: Must be on or after effective_from'))
      ) {
        wrongAnswers.push(replies.map(summary));
      }
      return row.effective_to < row.effective_from;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('never stores two overlapping versions of one family when two creates race: one 201, one 409', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async (round) => {
      const family = `race-family-${round}`;
      const version = (effective_from: string, effective_to: string) =>
        owner.client.post(base, { account_id: accountId, name: 'Version', family, effective_from, effective_to });
      const replies = await Promise.all([version('2026-04-01', '2027-03-31'), version('2027-01-01', '2027-12-31')]);
      const loser = replies.find((r) => r.status !== 201);
      if (!same(statuses(replies), [201, 409]) || !same(loser?.body, conflict(OVERLAPPING_VERSIONS))) {
        wrongAnswers.push(replies.map(summary));
      }
      const [row] = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM tariffs WHERE account_id = $1 AND family = $2',
        [accountId, family],
      );
      return row!.n !== 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('never leaves two versions of one family overlapping when two updates move them onto each other', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async (round) => {
      const family = `moving-family-${round}`;
      const version = async (effective_from: string, effective_to: string) =>
        (await owner.client.post(base, { account_id: accountId, name: 'V', family, effective_from, effective_to })).body
          .data.id as number;
      const [first, second] = [await version('2025-01-01', '2025-06-30'), await version('2025-10-01', '2025-12-31')];
      // Each alone leaves a gap; both together overlap in August.
      const replies = await Promise.all([
        put(first, { effective_to: '2025-08-31' }),
        put(second, { effective_from: '2025-08-01' }),
      ]);
      const loser = replies.find((r) => r.status !== 200);
      if (!same(statuses(replies), [200, 409]) || !same(loser?.body, conflict(OVERLAPPING_VERSIONS))) {
        wrongAnswers.push(replies.map(summary));
      }
      const [row] = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM tariffs a JOIN tariffs b ON a.id < b.id AND a.family = b.family
         WHERE a.family = $1 AND a.effective_from <= b.effective_to AND b.effective_from <= a.effective_to`,
        [family],
      );
      return row!.n > 0;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('deletes a tariff exactly once when five deletes race: one 204, the others 404', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const tariffId = await insertTariff(t.db, accountId);
      const replies = await Promise.all(Array.from({ length: 5 }, () => remove(tariffId)));
      for (const reply of replies.filter((r) => r.status !== 204)) {
        if (reply.status !== 404 || !same(reply.body, notFound('Tariff'))) wrongAnswers.push(summary(reply));
      }
      return replies.filter((r) => r.status === 204).length !== 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('deletes a tariff exactly once when a DELETE races a PUT with deleted_at', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const tariffId = await insertTariff(t.db, accountId);
      const [viaDelete, viaPut] = await Promise.all([
        remove(tariffId),
        put(tariffId, { deleted_at: new Date().toISOString() }),
      ]);
      const succeeded = [viaDelete.status === 204, viaPut.status === 200].filter(Boolean).length;
      const loser = viaDelete.status === 204 ? viaPut : viaDelete;
      if (succeeded === 1 && (loser.status !== 404 || !same(loser.body, notFound('Tariff')))) {
        wrongAnswers.push(summary(loser));
      }
      return succeeded !== 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  describe('a delete racing a write that names the tariff', () => {
    let blockId: number;
    beforeAll(async () => {
      blockId = await insertBuildingBlock(t.db, accountId);
    });

    /** Rows that name a deleted tariff. */
    async function referencesToDeleted() {
      const [row] = await t.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM meters m JOIN tariffs d ON d.id = m.tariff_id WHERE d.deleted_at IS NOT NULL)
              + (SELECT count(*) FROM energy_dashboard_configs c JOIN tariffs d
                   ON d.id IN (c.grid_tariff_id, c.solar_tariff_id, c.genset_tariff_id, c.inverter_tariff_id, c.load_tariff_id)
                 WHERE d.deleted_at IS NOT NULL) AS n`,
      );
      return row!.n;
    }

    /** Runs the race; the write either lands first (delete 409) or comes second (400 naming the tariff). */
    async function race(write: (tariffId: number, round: number) => Promise<Reply>, path: string, user: string) {
      const wrongAnswers: unknown[] = [];
      const violations = await countViolations(async (round) => {
        const tariffId = await insertTariff(t.db, accountId);
        const [deleted, written] = await Promise.all([remove(tariffId), write(tariffId, round)]);
        const writeLost = invalid(`${path}: Tariff ${tariffId} not found in this organization`);
        const deleteLost = conflict(`The tariff is still referenced by ${user}`);
        const ok =
          (deleted.status === 204 && written.status === 400 && same(written.body, writeLost)) ||
          (written.status === 200 && deleted.status === 409 && same(deleted.body, deleteLost));
        if (!ok) wrongAnswers.push([summary(deleted), summary(written)]);
        return (await referencesToDeleted()) > 0;
      });
      return { violations, wrongAnswers };
    }

    it('never leaves a meter on a deleted tariff (PUT /meters/:id with tariff_id)', async () => {
      const meters = await Promise.all(Array.from({ length: ROUNDS }, () => insertMeter(t.db, accountId, blockId)));
      const { violations, wrongAnswers } = await race(
        (tariffId, round) =>
          owner.client.put(`/api/v1/meters/${meters[round]}`, { account_id: accountId, tariff_id: tariffId }),
        'tariff_id',
        'a meter',
      );
      expect(violations).toBe(0);
      expect(wrongAnswers).toEqual([]);
    });

    it('never leaves a dashboard config on a deleted tariff (PUT /building_blocks/:id/config)', async () => {
      const { violations, wrongAnswers } = await race(
        (tariffId) =>
          owner.client.put(`/api/v1/building_blocks/${blockId}/config`, {
            account_id: accountId,
            grid_tariff_id: tariffId,
          }),
        'grid_tariff_id',
        'an energy dashboard config',
      );
      expect(violations).toBe(0);
      expect(wrongAnswers).toEqual([]);
    });
  });
});
