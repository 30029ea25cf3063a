import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, startRaceWorld, summary } from '../../../test/helpers/races.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertTariff,
} from '../../../test/helpers/sql-fixtures.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { SOURCES } from '../dashboard-config/dashboard-config.schemas.ts';

interface StoredRecord {
  tariff_id: number | null;
  effective_from: Date | null;
}

/**
 * What every meter's or source's records must show, however its writes raced: the first record
 * from the beginning of time and no other, instants that never go back, each record a change, and
 * the last one the current tariff (no record: none).
 */
function historyHolds(records: StoredRecord[], current: number | null): boolean {
  if (records.length === 0) return current === null;
  return (
    records.at(-1)!.tariff_id === current &&
    records.every((record, i) => {
      if (i === 0) return record.effective_from === null;
      const previous = records[i - 1]!;
      return (
        record.effective_from !== null &&
        record.tariff_id !== previous.tariff_id &&
        record.effective_from.getTime() >= (previous.effective_from?.getTime() ?? Number.NEGATIVE_INFINITY)
      );
    })
  );
}

describe.runIf(onPostgres)('tariff history under concurrent writes (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  let blockId: number;
  beforeAll(async () => {
    ({ t, owner, accountId, blockId } = await startRaceWorld());
  });
  afterAll(async () => t.close());

  const tariffs = async (n: number) =>
    (await Promise.all(Array.from({ length: n }, () => insertTariff(t.db, accountId)))) as number[];
  const putConfig = (block: number, body: Record<string, unknown>) =>
    owner.client.put(`/api/v1/building_blocks/${block}/config`, { account_id: accountId, ...body });
  const putMeter = (meter: number, tariffId: number) =>
    owner.client.put(`/api/v1/meters/${meter}`, { account_id: accountId, tariff_id: tariffId });
  const applyAtOnce = (predecessor: number, successor: number) =>
    owner.client.post(`/api/v1/tariffs/${predecessor}/transitions`, {
      account_id: accountId,
      successor_id: successor,
      effective_from: new Date(Date.now() - 3_600_000).toISOString(),
    });

  async function meterHistoryHolds(meter: number) {
    const [{ tariff_id: current }] = (await t.db.query<{ tariff_id: number | null }>(
      'SELECT tariff_id FROM meters WHERE id = $1',
      [meter],
    )) as [{ tariff_id: number | null }];
    const records = await t.db.query<StoredRecord>(
      'SELECT tariff_id, effective_from FROM tariff_history WHERE meter_id = $1 ORDER BY id',
      [meter],
    );
    return historyHolds(records, current);
  }

  async function configHistoryHolds(block: number) {
    const [config] = await t.db.query<Record<string, number | null>>(
      'SELECT * FROM energy_dashboard_configs WHERE building_block_id = $1',
      [block],
    );
    const records = await t.db.query<StoredRecord & { source: string }>(
      'SELECT source, tariff_id, effective_from FROM tariff_history WHERE building_block_id = $1 ORDER BY id',
      [block],
    );
    return SOURCES.every((source) =>
      historyHolds(
        records.filter((r) => r.source === source),
        config?.[`${source}_tariff_id`] ?? null,
      ),
    );
  }

  /** Runs the round's requests together; a round breaks the rule when a request fails or the history does not hold. */
  async function race(requests: Promise<Reply>[], holds: () => Promise<boolean>, wrongAnswers: string[]) {
    const replies = await Promise.all(requests);
    const failed = replies.filter((r) => r.status >= 300);
    wrongAnswers.push(...failed.map(summary));
    return failed.length > 0 || !(await holds());
  }

  it('keeps the last record equal to the current tariff when two config writes reassign a source together', async () => {
    const wrongAnswers: string[] = [];
    const violations = await countViolations(async () => {
      const [a, b, c] = (await tariffs(3)) as [number, number, number];
      const block = await insertBuildingBlock(t.db, accountId);
      await insertDashboardConfig(t.db, accountId, block, { grid: a });
      return race(
        [putConfig(block, { grid_tariff_id: b, load_tariff_id: a }), putConfig(block, { grid_tariff_id: c })],
        () => configHistoryHolds(block),
        wrongAnswers,
      );
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('records both of two config creates of one block sent together, the first from the beginning of time', async () => {
    const wrongAnswers: string[] = [];
    const violations = await countViolations(async () => {
      const [a, b] = (await tariffs(2)) as [number, number];
      const block = await insertBuildingBlock(t.db, accountId);
      return race(
        [putConfig(block, { grid_tariff_id: a }), putConfig(block, { grid_tariff_id: b })],
        () => configHistoryHolds(block),
        wrongAnswers,
      );
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('keeps the last record equal to the current tariff when two meter updates reassign it together', async () => {
    const wrongAnswers: string[] = [];
    const violations = await countViolations(async () => {
      const [a, b, c] = (await tariffs(3)) as [number, number, number];
      const meter = await insertMeter(t.db, accountId, blockId, { tariffId: a });
      return race([putMeter(meter, b), putMeter(meter, c)], () => meterHistoryHolds(meter), wrongAnswers);
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('keeps the history of meters and configs when a transition is applied while they are reassigned', async () => {
    const wrongAnswers: string[] = [];
    const violations = await countViolations(async () => {
      const [a, b, c] = (await tariffs(3)) as [number, number, number];
      const meter = await insertMeter(t.db, accountId, blockId, { tariffId: a });
      const block = await insertBuildingBlock(t.db, accountId);
      await insertDashboardConfig(t.db, accountId, block, { grid: a, solar: a });
      return race(
        [applyAtOnce(a, b), putMeter(meter, c), putConfig(block, { grid_tariff_id: c })],
        async () => (await meterHistoryHolds(meter)) && (await configHistoryHolds(block)),
        wrongAnswers,
      );
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('keeps the history of a config deleted while it is reassigned', async () => {
    const wrongAnswers: string[] = [];
    const violations = await countViolations(async () => {
      const [a, b] = (await tariffs(2)) as [number, number];
      const block = await insertBuildingBlock(t.db, accountId);
      await insertDashboardConfig(t.db, accountId, block, { grid: a, load: a });
      const remove = owner.client.delete(`/api/v1/building_blocks/${block}/config`, { account_id: accountId });
      return race([remove, putConfig(block, { grid_tariff_id: b })], () => configHistoryHolds(block), wrongAnswers);
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });
});
