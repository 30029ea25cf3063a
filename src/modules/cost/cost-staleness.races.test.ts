import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, registerUser, type TestUser } from '../../../test/helpers/factories.ts';
import type { Client } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres } from '../../../test/helpers/races.ts';
import { secondProcess } from '../../../test/helpers/second-process.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertReadings,
} from '../../../test/helpers/sql-fixtures.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/** The other process's staleness bound (shorter than the default, so that 50 rounds take less time). */
const OTHER_STALE_MS = 400;
const WRITES = 8;
const PRICING_CLIENTS = 6;
/** Every pricing request of the test runs at once: none waits for a slot or gets 429. */
const UNLIMITED = {
  EXPENSIVE_CONCURRENCY_PER_ORG: '64',
  EXPENSIVE_CONCURRENCY_PER_USER: '64',
  EXPENSIVE_CONCURRENCY_TOTAL: '64',
};

let t: TestApp;
let owner: TestUser;
let accountId: string;
let tariffId: number;
let blockId: number;
const meterSn = 'STALE-TAX-1';
const period = { start: '2025-03-03T00:00:00Z', end: '2025-03-04T00:00:00Z' };

beforeAll(async () => {
  t = await startTestApp(UNLIMITED);
  owner = await registerUser(t.app, 'owner');
  accountId = await createOrganization(owner);
  blockId = await insertBuildingBlock(t.db, accountId);
  const meterId = await insertMeter(t.db, accountId, blockId, { meterSn });
  await insertReadings(t.db, meterId, period.start, 48, () => ({ import_kwh: 1 }));
  tariffId = (await createTariff(owner.client, accountId, { tax_rate: 0 })).id;
  await createItems(owner.client, tariffId, { item_type_code: 'IMPORT_ENERGY', price: 2 });
  await insertDashboardConfig(t.db, accountId, blockId, { grid: tariffId }, { grid: meterId });
});
afterAll(async () => t.close());

/** The tax rates the two cost endpoints bill with now. */
async function billedTaxRates(client: Client): Promise<number[]> {
  const [meter, building] = await Promise.all([
    client.get(`/api/v1/tariffs/${tariffId}/cost`, { account_id: accountId, meter_sn: meterSn, ...period }),
    client.get(`/api/v1/building_blocks/${blockId}/energy-cost`, { account_id: accountId, ...period }),
  ]);
  if (meter.status !== 200 || building.status !== 200) {
    throw new Error(`pricing failed: ${meter.status} ${building.status} ${JSON.stringify(building.body)}`);
  }
  return [meter.body.data.tax_rate, building.body.data.sources[0].bills[0].tax_rate];
}

async function storedTaxRate(): Promise<number> {
  const [row] = await t.db.query<{ tax_rate: number }>('SELECT tax_rate FROM tariffs WHERE id = $1', [tariffId]);
  return Number(row!.tax_rate);
}

describe.runIf(onPostgres)('a bill after a write, two processes on one PostgreSQL', () => {
  let other: Awaited<ReturnType<typeof secondProcess>>;
  beforeAll(async () => {
    other = await secondProcess(t.databaseUrl!, owner, { ...UNLIMITED, CACHE_STALE_MS: String(OTHER_STALE_MS) });
  });
  afterAll(async () => other?.close());

  /**
   * Rounds of WRITES writes at once (`write(round, i)`, each answering 200) while clients price on
   * both processes: after the last write's answer, what `billed` reads of a bill must be the stored
   * value (`stored`) at once on the writing process, and on the other for any bill it starts
   * OTHER_STALE_MS after that answer. The rounds that break it, described.
   */
  async function staleRounds<T>(
    billed: (client: Client) => Promise<T[]>,
    write: (round: number, i: number) => Promise<{ status: number }>,
    stored: () => Promise<T>,
  ): Promise<string[]> {
    const stale: string[] = [];
    const violations = await countViolations(async (round) => {
      let writing = true;
      const pricing = Array.from({ length: PRICING_CLIENTS }, async (_, i) => {
        const client = i % 3 === 2 ? other.client : owner.client;
        while (writing) await billed(client);
      });
      const writes = await Promise.all(Array.from({ length: WRITES }, (_, i) => write(round, i)));
      const written = performance.now();
      expect(writes.map((w) => w.status)).toEqual(Array(WRITES).fill(200));
      const expected = await stored();
      const onWriter = await billed(owner.client);
      writing = false;
      await Promise.all(pricing);

      let onOther: T[] = [];
      let startedLate = false;
      do {
        startedLate = performance.now() - written > OTHER_STALE_MS;
        onOther = await billed(other.client);
      } while (!startedLate && !onOther.every((value) => value === expected));

      const broken = ![...onWriter, ...onOther].every((value) => value === expected);
      if (broken) stale.push(`round ${round}: ${expected} expected, writer ${onWriter}, other ${onOther}`);
      return broken;
    });
    return violations === 0 ? stale : [...stale, `${violations} rounds broken`];
  }

  it('uses the last rate at once on the writing process, and within CACHE_STALE_MS on the other', async () => {
    const stale = await staleRounds(
      billedTaxRates,
      (round, i) =>
        owner.client.put(`/api/v1/tariffs/${tariffId}`, { account_id: accountId, tax_rate: (round % 11) * WRITES + i }),
      storedTaxRate,
    );
    expect(stale).toEqual([]);
  }, 600_000);

  it('names a renamed meter at once on the writing process, and within CACHE_STALE_MS on the other', async () => {
    const siteId = await insertBuildingBlock(t.db, accountId);
    const renamedId = await insertMeter(t.db, accountId, siteId, { meterSn: 'STALE-FACTS-0' });
    await insertReadings(t.db, renamedId, period.start, 48, () => ({ import_kwh: 1 }));
    await insertDashboardConfig(t.db, accountId, siteId, { grid: tariffId }, { grid: renamedId });
    /** The serial number the building cost names the grid meter by, on the source and on its bill. */
    const namedSerials = async (client: Client): Promise<string[]> => {
      const res = await client.get(`/api/v1/building_blocks/${siteId}/energy-cost`, {
        account_id: accountId,
        ...period,
      });
      if (res.status !== 200) throw new Error(`pricing failed: ${res.status} ${JSON.stringify(res.body)}`);
      const [grid] = res.body.data.sources;
      return [grid.meter_sn, grid.bills[0].meter_sn];
    };
    const stale = await staleRounds(
      namedSerials,
      (round, i) =>
        owner.client.put(`/api/v1/meters/${renamedId}`, {
          account_id: accountId,
          meter_sn: `STALE-FACTS-${round}-${i}`,
        }),
      async () => {
        const [row] = await t.db.query<{ meter_sn: string }>('SELECT meter_sn FROM meters WHERE id = $1', [renamedId]);
        return row!.meter_sn;
      },
    );
    expect(stale).toEqual([]);
  }, 600_000);
});
