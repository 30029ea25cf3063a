import type { Role } from '../../src/db/memberships.ts';
import type { Executor } from '../../src/db/types.ts';
import { createBlock, createMeter } from '../helpers/building-factories.ts';
import { addMember, createOrganization, type TestUser } from '../helpers/factories.ts';
import { createItems, createTariff } from '../helpers/tariff-factories.ts';
import { at, ingest } from '../helpers/timeseries-factories.ts';

/** The day of the fixture's readings: the range every timeseries and cost call asks about. */
export const READINGS_RANGE = { start: '2025-03-03T00:00:00.000Z', end: '2025-03-04T00:00:00.000Z' };
const TRANSITION_DATE = '2099-01-01T00:00:00.000Z';

/** One of every organization-scoped resource, made through the API. */
export interface OrganizationFixture {
  accountId: string;
  /** Carries the meter and the dashboard config. */
  parentBlockId: number;
  /** A leaf nothing else names, so that deleting it may succeed. */
  childBlockId: number;
  meterId: number;
  meterSn: string;
  /** BLOCK tariff with one item of two tiers: prices the meter and the config's grid source; predecessor of the transition. */
  blockTariffId: number;
  itemId: number;
  tierIds: number[];
  /** TIME_OF_USE tariff: successor of the (future-dated) transition. */
  touTariffId: number;
  /** FLAT tariff nothing names. */
  spareTariffId: number;
  /** An invoice of the parent block's grid over the readings' day. */
  invoiceId: number;
  /** A gateway of the meter, and its key. */
  gatewayId: number;
  gatewayKey: string;
  /** A water meter with two register reads over the readings' day. */
  waterMeterId: number;
  waterMeterSn: string;
}

/** A valid invoice body for the block's grid over the readings' day, numbered `number`. */
export function invoiceBody(accountId: string, blockId: number, number = 'INV-0001') {
  return {
    account_id: accountId,
    building_block_id: blockId,
    supplier: 'City Power',
    invoice_number: number,
    issued_on: '2025-03-10',
    ...READINGS_RANGE,
    currency: 'ZAR',
    lines: [{ description: 'Energy', item_type_code: 'IMPORT_ENERGY', quantity: 60, unit: 'kWh', amount: 90 }],
    subtotal: 90,
    tax: 13.5,
    total: 103.5,
  };
}

async function expectStatus(response: Promise<{ status: number; body: unknown }>, status: number, what: string) {
  const res = await response;
  if (res.status !== status) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { data: any };
}

export async function buildOrganization(
  owner: TestUser,
  members: { user: TestUser; role: Role }[],
  name: string,
): Promise<OrganizationFixture> {
  const client = owner.client;
  const accountId = await createOrganization(owner, name);
  for (const { user, role } of members) await addMember(owner, accountId, user, role);

  const parent = await createBlock(client, accountId, { name: `${name} campus` });
  const child = await createBlock(client, accountId, { name: `${name} annex`, parent_id: parent.id });

  const blockTariff = await createTariff(client, accountId, { name: 'Block tariff', tariff_type: 'BLOCK' });
  const [item] = await createItems(client, blockTariff.id, {
    item_type_code: 'IMPORT_ENERGY',
    price: 0,
    blocks: [
      { block_index: 0, upper_limit: 500, unit_price_cents: 150 },
      { block_index: 1, upper_limit: null, unit_price_cents: 250 },
    ],
  });
  const touTariff = await createTariff(client, accountId, {
    name: 'Time-of-use tariff',
    tariff_type: 'TIME_OF_USE',
    tou_schedule_id: 3,
  });
  const spareTariff = await createTariff(client, accountId, { name: 'Spare tariff' });

  const meter = await createMeter(client, accountId, parent.id, { tariff_id: blockTariff.id });
  const readings = Array.from({ length: 48 }, (_, i) => ({
    ts: at(READINGS_RANGE.start, i * 30),
    import_kwh: 1 + (i % 5) / 4,
    export_kwh: i % 3,
    kvarh: 0.5,
  }));
  await ingest(client, accountId, meter.meter_sn, readings);

  await expectStatus(
    client.post(`/api/v1/tariffs/${blockTariff.id}/transitions`, {
      account_id: accountId,
      successor_id: touTariff.id,
      effective_from: TRANSITION_DATE,
      notes: 'Scheduled move to time-of-use',
    }),
    201,
    'transition create',
  );
  await expectStatus(
    client.put(`/api/v1/building_blocks/${parent.id}/config`, {
      account_id: accountId,
      grid_meter_id: meter.id,
      grid_tariff_id: blockTariff.id,
      submeter_ids: [meter.id],
    }),
    200,
    'config upsert',
  );

  const invoice = await expectStatus(
    client.post('/api/v1/invoices', invoiceBody(accountId, parent.id)),
    201,
    'invoice create',
  );

  const waterMeter = await createMeter(client, accountId, parent.id, { meter_type: 'WATER' });
  await expectStatus(
    client.post(`/api/v1/meters/${waterMeter.id}/register-reads`, {
      account_id: accountId,
      reads: [
        { read_at: READINGS_RANGE.start, register_kl: 100 },
        { read_at: READINGS_RANGE.end, register_kl: 112 },
      ],
    }),
    200,
    'register reads',
  );

  const gateway = await expectStatus(
    client.post('/api/v1/gateways', { account_id: accountId, name: `${name} logger`, meter_ids: [meter.id] }),
    201,
    'gateway create',
  );

  return {
    accountId,
    parentBlockId: parent.id,
    childBlockId: child.id,
    meterId: meter.id,
    meterSn: meter.meter_sn,
    blockTariffId: blockTariff.id,
    itemId: item.id,
    tierIds: item.tariff_blocks.map((tier: { id: number }) => tier.id),
    touTariffId: touTariff.id,
    spareTariffId: spareTariff.id,
    invoiceId: invoice.data.id,
    waterMeterId: waterMeter.id,
    waterMeterSn: waterMeter.meter_sn,
    gatewayId: gateway.data.id,
    gatewayKey: gateway.data.key,
  };
}

/** Everything stored about the organization, straight from the tables, in a stable order. */
export async function snapshotOrganization(db: Executor, accountId: string) {
  const rows = (sql: string) => db.query(sql, [accountId]);
  const ofMeters = (table: string, timeColumn: string) =>
    rows(
      `SELECT r.* FROM ${table} r JOIN meters m ON m.id = r.meter_id WHERE m.account_id = $1 ORDER BY r.meter_id, r.${timeColumn}`,
    );
  return {
    accounts: await rows('SELECT * FROM accounts WHERE id = $1'),
    memberships: await rows('SELECT * FROM memberships WHERE account_id = $1 ORDER BY user_id'),
    building_blocks: await rows('SELECT * FROM building_blocks WHERE account_id = $1 ORDER BY id'),
    meters: await rows('SELECT * FROM meters WHERE account_id = $1 ORDER BY id'),
    energy_dashboard_configs: await rows(
      'SELECT * FROM energy_dashboard_configs WHERE account_id = $1 ORDER BY building_block_id',
    ),
    tariffs: await rows('SELECT * FROM tariffs WHERE account_id = $1 ORDER BY id'),
    tariff_items: await rows(
      'SELECT i.* FROM tariff_items i JOIN tariffs t ON t.id = i.tariff_id WHERE t.account_id = $1 ORDER BY i.id',
    ),
    tariff_blocks: await rows(
      `SELECT b.* FROM tariff_blocks b JOIN tariff_items i ON i.id = b.tariff_item_id JOIN tariffs t ON t.id = i.tariff_id
       WHERE t.account_id = $1 ORDER BY b.id`,
    ),
    tariff_transitions: await rows('SELECT * FROM tariff_transitions WHERE account_id = $1 ORDER BY id'),
    tariff_transition_applications: await rows(
      `SELECT a.* FROM tariff_transition_applications a JOIN tariff_transitions t ON t.id = a.transition_id
       WHERE t.account_id = $1 ORDER BY a.id`,
    ),
    tariff_history: await rows('SELECT * FROM tariff_history WHERE account_id = $1 ORDER BY id'),
    gateways: await rows('SELECT * FROM gateways WHERE account_id = $1 ORDER BY id'),
    gateway_meters: await rows('SELECT * FROM gateway_meters WHERE account_id = $1 ORDER BY gateway_id, meter_id'),
    readings: await ofMeters('readings', 'ts'),
    readings_hourly: await ofMeters('readings_hourly', 'bucket_start'),
    readings_daily: await ofMeters('readings_daily', 'bucket_start'),
    register_reads: await ofMeters('register_reads', 'read_at'),
    // Without the latest check's outcome: the victim's own members check its invoice (and the check records it).
    invoices: await rows(
      `SELECT id, account_id, building_block_id, source, supplier, invoice_number, issued_on, period_start, period_end,
         currency, estimated, lines, subtotal, tax, total, created_at, updated_at
       FROM invoices WHERE account_id = $1 ORDER BY id`,
    ),
  };
}
