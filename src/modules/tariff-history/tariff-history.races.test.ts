import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, startRaceWorld, summary } from '../../../test/helpers/races.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertTariff,
} from '../../../test/helpers/sql-fixtures.ts';
import { SOURCES } from '../../db/energy-sources.ts';

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
  let w: Awaited<ReturnType<typeof startRaceWorld>>;
  beforeAll(async () => {
    w = await startRaceWorld();
  });
  afterAll(async () => w.t.close());

  const tariffs = async (n: number) =>
    (await Promise.all(Array.from({ length: n }, () => insertTariff(w.t.db, w.accountId)))) as number[];
  const putConfig = (block: number, body: Record<string, unknown>) =>
    w.owner.client.put(`/api/v1/building_blocks/${block}/config`, { account_id: w.accountId, ...body });
  const putMeter = (meter: number, tariffId: number) =>
    w.owner.client.put(`/api/v1/meters/${meter}`, { account_id: w.accountId, tariff_id: tariffId });
  const applyAtOnce = (predecessor: number, successor: number) =>
    w.owner.client.post(`/api/v1/tariffs/${predecessor}/transitions`, {
      account_id: w.accountId,
      successor_id: successor,
      effective_from: new Date(Date.now() - 3_600_000).toISOString(),
    });

  async function meterHistoryHolds(meter: number) {
    const [{ tariff_id: current }] = (await w.t.db.query<{ tariff_id: number | null }>(
      'SELECT tariff_id FROM meters WHERE id = $1',
      [meter],
    )) as [{ tariff_id: number | null }];
    const records = await w.t.db.query<StoredRecord>(
      'SELECT tariff_id, effective_from FROM tariff_history WHERE meter_id = $1 ORDER BY id',
      [meter],
    );
    return historyHolds(records, current);
  }

  async function configHistoryHolds(block: number) {
    const [config] = await w.t.db.query<Record<string, number | null>>(
      'SELECT * FROM energy_dashboard_configs WHERE building_block_id = $1',
      [block],
    );
    const records = await w.t.db.query<StoredRecord & { source: string }>(
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

  /**
   * Runs ROUNDS rounds, each set up by `round` and its requests sent together: none may fail, and
   * the history must hold after each.
   */
  async function expectEveryRoundHolds(
    round: () => Promise<{ requests: Promise<Reply>[]; holds: () => Promise<boolean> }>,
  ) {
    const wrongAnswers: string[] = [];
    const violations = await countViolations(async () => {
      const { requests, holds } = await round();
      const failed = (await Promise.all(requests)).filter((r) => r.status >= 300);
      wrongAnswers.push(...failed.map(summary));
      return failed.length > 0 || !(await holds());
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  }

  it('keeps the last record equal to the current tariff when two config writes reassign a source together', async () => {
    await expectEveryRoundHolds(async () => {
      const [a, b, c] = (await tariffs(3)) as [number, number, number];
      const block = await insertBuildingBlock(w.t.db, w.accountId);
      await insertDashboardConfig(w.t.db, w.accountId, block, { grid: a });
      return {
        requests: [putConfig(block, { grid_tariff_id: b, load_tariff_id: a }), putConfig(block, { grid_tariff_id: c })],
        holds: () => configHistoryHolds(block),
      };
    });
  });

  it('records both of two config creates of one block sent together, the first from the beginning of time', async () => {
    await expectEveryRoundHolds(async () => {
      const [a, b] = (await tariffs(2)) as [number, number];
      const block = await insertBuildingBlock(w.t.db, w.accountId);
      return {
        requests: [putConfig(block, { grid_tariff_id: a }), putConfig(block, { grid_tariff_id: b })],
        holds: () => configHistoryHolds(block),
      };
    });
  });

  it('keeps the last record equal to the current tariff when two meter updates reassign it together', async () => {
    await expectEveryRoundHolds(async () => {
      const [a, b, c] = (await tariffs(3)) as [number, number, number];
      const meter = await insertMeter(w.t.db, w.accountId, w.blockId, { tariffId: a });
      return { requests: [putMeter(meter, b), putMeter(meter, c)], holds: () => meterHistoryHolds(meter) };
    });
  });

  it('keeps the history of meters and configs when a transition is applied while they are reassigned', async () => {
    await expectEveryRoundHolds(async () => {
      const [a, b, c] = (await tariffs(3)) as [number, number, number];
      const meter = await insertMeter(w.t.db, w.accountId, w.blockId, { tariffId: a });
      const block = await insertBuildingBlock(w.t.db, w.accountId);
      await insertDashboardConfig(w.t.db, w.accountId, block, { grid: a, solar: a });
      return {
        requests: [applyAtOnce(a, b), putMeter(meter, c), putConfig(block, { grid_tariff_id: c })],
        holds: async () => (await meterHistoryHolds(meter)) && (await configHistoryHolds(block)),
      };
    });
  });

  it('keeps the history of a config deleted while it is reassigned', async () => {
    await expectEveryRoundHolds(async () => {
      const [a, b] = (await tariffs(2)) as [number, number];
      const block = await insertBuildingBlock(w.t.db, w.accountId);
      await insertDashboardConfig(w.t.db, w.accountId, block, { grid: a, load: a });
      const remove = w.owner.client.delete(`/api/v1/building_blocks/${block}/config`, { account_id: w.accountId });
      return { requests: [remove, putConfig(block, { grid_tariff_id: b })], holds: () => configHistoryHolds(block) };
    });
  });
});
