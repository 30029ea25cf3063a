import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { failure, forbidden, invalid } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { describeWithMosquitto, startMosquitto } from '../../../test/helpers/mosquitto.ts';
import { NO_SHEDDING, startTestApp, TEST_SIGNING_KEYS, type TestApp } from '../../../test/helpers/test-app.ts';
import { insertMeter, storedReadings, type TestMeter } from '../../../test/helpers/timeseries-factories.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/types.ts';
import type { App } from '../../http/types.ts';

const INVALID_KEY = failure('Authentication required', 'Invalid bearer token');
const TS = '2026-03-01T00:00:00.000Z';

describeWithMosquitto('readings published over MQTT to a Mosquitto broker', () => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof organizationWithRoles>>;
  let broker: Awaited<ReturnType<typeof startMosquitto>>;
  /** The service with MQTT_URL: started and stopped by the tests, on the test app's database. */
  let service: App | undefined;
  /** A logger on site: publishes readings, and reads what comes back on the errors topics. */
  let device: MqttClient;
  const waiting = new Map<string, ((body: unknown) => void)[]>();
  const arrived = new Map<string, unknown[]>();

  /** When set, the service's next transaction fails as a dropped database connection does (a 503). */
  let failNextTransaction = false;
  const database = (db: Database): Database =>
    new Proxy(db, {
      get(target, property) {
        if (property === 'transaction' && failNextTransaction) {
          failNextTransaction = false;
          return () => Promise.reject(new Error('Connection terminated unexpectedly'));
        }
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });

  async function startService() {
    const config = loadConfig({
      LOG_LEVEL: process.env.PROBE ? 'info' : 'silent',
      SEED_DEMO: 'false',
      ...NO_SHEDDING,
      TRANSITION_POLL_S: '3600',
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: 'ums-test',
    });
    service = await buildApp({ config, db: database(t.db), keys: TEST_SIGNING_KEYS });
    // Resolves once subscribed: what waited for the session at the broker comes after.
    await service.ready();
  }

  async function stopService() {
    await service?.close();
    service = undefined;
  }

  beforeAll(async () => {
    [t, broker] = await Promise.all([startTestApp(), startMosquitto()]);
    org = await organizationWithRoles(t.app);
    device = await mqtt.connectAsync(broker.url, { clientId: 'test-logger' });
    device.on('message', (topic, payload) => {
      const body = JSON.parse(payload.toString());
      const next = waiting.get(topic)?.shift();
      if (next) next(body);
      else arrived.set(topic, [...(arrived.get(topic) ?? []), body]);
    });
    await device.subscribeAsync('ums/+/errors', { qos: 1 });
    await startService();
  });
  afterAll(async () => {
    await stopService();
    await device?.endAsync();
    await broker?.stop();
    await t?.close();
  });

  /** The next error envelope answered on the gateway's errors topic. */
  function nextError(gatewayId: number | string): Promise<unknown> {
    const topic = `ums/${gatewayId}/errors`;
    const already = arrived.get(topic)?.shift();
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve) => waiting.set(topic, [...(waiting.get(topic) ?? []), resolve]));
  }

  const publish = (gatewayId: number | string, body: unknown) =>
    device.publishAsync(`ums/${gatewayId}/readings`, typeof body === 'string' ? body : JSON.stringify(body), {
      qos: 1,
    });

  /**
   * Every message published before it is handled once its error arrives: the service handles a
   * subscription's messages one at a time, in order.
   */
  async function handledSoFar(gateway: { id: number; key: string }) {
    await publish(gateway.id, { key: gateway.key, meter_sn: 'MARKER', readings: [] });
    expect(await nextError(gateway.id)).toEqual(invalid('readings: Too small: expected array to have >=1 items'));
  }

  /** The meter's readings once the service has stored some: what it handles, it may handle in any order. */
  async function storedOnce(meterId: number) {
    for (;;) {
      const stored = await storedReadings(t.db, meterId);
      if (stored.length > 0) return stored;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function gatewayOf(meters: TestMeter[]) {
    const res = await org.owner.client.post('/api/v1/gateways', {
      account_id: org.accountId,
      name: 'MQTT logger',
      meter_ids: meters.map((m) => m.id),
    });
    return res.body.data as { id: number; key: string };
  }

  const readingsOf = (meter: TestMeter, importKwh = 3) => ({
    meter_sn: meter.meter_sn,
    readings: [{ ts: TS, import_kwh: importKwh }],
  });

  it('stores a published message, answers nothing on the errors topic, and sets last_seen_at', async () => {
    const meter = await insertMeter(t.db, org.accountId);
    const gateway = await gatewayOf([meter]);
    await publish(gateway.id, { key: gateway.key, ...readingsOf(meter) });
    expect(await storedOnce(meter.id)).toEqual([
      { ts: TS, import_kwh: 3, export_kwh: 0, kvarh: 0, power_kw: 6, kva: 6 },
    ]);
    const read = await org.member.client.get(`/api/v1/gateways/${gateway.id}`, { account_id: org.accountId });
    expect(read.body.data.last_seen_at).toEqual(expect.any(String));
  });

  it('answers a bad key, a rotated key and another gateway’s key with 401 on the errors topic, storing nothing', async () => {
    const meter = await insertMeter(t.db, org.accountId);
    const gateway = await gatewayOf([meter]);
    const neighbour = await gatewayOf([meter]);
    await publish(gateway.id, { key: 'ugw_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', ...readingsOf(meter) });
    expect(await nextError(gateway.id)).toEqual(INVALID_KEY);
    await publish(gateway.id, readingsOf(meter));
    expect(await nextError(gateway.id)).toEqual(INVALID_KEY);
    await publish(gateway.id, { key: neighbour.key, ...readingsOf(meter) });
    expect(await nextError(gateway.id)).toEqual(INVALID_KEY);
    const rotated = await org.owner.client.post(
      `/api/v1/gateways/${gateway.id}/rotate-key?account_id=${org.accountId}`,
    );
    await publish(gateway.id, { key: gateway.key, ...readingsOf(meter) });
    expect(await nextError(gateway.id)).toEqual(INVALID_KEY);
    await handledSoFar({ id: gateway.id, key: rotated.body.data.key });
    expect(await storedReadings(t.db, meter.id)).toEqual([]);
  });

  it('answers a meter of another organization and one not wired to it with 403, storing nothing', async () => {
    const [wired, unwired, foreign] = await Promise.all([
      insertMeter(t.db, org.accountId),
      insertMeter(t.db, org.accountId),
      insertMeter(t.db, org.otherAccountId),
    ]);
    const gateway = await gatewayOf([wired]);
    await publish(gateway.id, { key: gateway.key, ...readingsOf(foreign) });
    expect(await nextError(gateway.id)).toEqual(forbidden(`Meter ${foreign.meter_sn} belongs to another organization`));
    await publish(gateway.id, { key: gateway.key, ...readingsOf(unwired) });
    expect(await nextError(gateway.id)).toEqual(forbidden(`Meter ${unwired.meter_sn} is not wired to this gateway`));
    expect(await storedReadings(t.db, foreign.id)).toEqual([]);
    expect(await storedReadings(t.db, unwired.id)).toEqual([]);
  });

  it('answers an invalid body with 400 as the readings route does, storing nothing', async () => {
    const meter = await insertMeter(t.db, org.accountId);
    const gateway = await gatewayOf([meter]);
    await publish(gateway.id, '{"key": ');
    expect(await nextError(gateway.id)).toEqual(invalid('body: Malformed JSON'));
    await publish(gateway.id, { key: gateway.key, ...readingsOf(meter, -1) });
    expect(await nextError(gateway.id)).toEqual(invalid('readings.0.import_kwh: Too small: expected number to be >=0'));
    await publish(gateway.id, { key: gateway.key, ...readingsOf(meter), extra: 1 });
    expect(await nextError(gateway.id)).toEqual(invalid('extra: Unrecognized key "extra"'));
    await publish(gateway.id, [1, 2]);
    expect(await nextError(gateway.id)).toEqual(invalid('body: Invalid input: expected object'));
    expect(await storedReadings(t.db, meter.id)).toEqual([]);
  });

  it('stores a message published while the service was stopped once it starts again (QoS 1, persistent session)', async () => {
    const meter = await insertMeter(t.db, org.accountId);
    const gateway = await gatewayOf([meter]);
    await stopService();
    // Acknowledged by the broker, which keeps it for the service's session.
    await publish(gateway.id, { key: gateway.key, ...readingsOf(meter, 7) });
    expect(await storedReadings(t.db, meter.id)).toEqual([]);
    await startService();
    expect(await storedOnce(meter.id)).toEqual([
      { ts: TS, import_kwh: 7, export_kwh: 0, kvarh: 0, power_kw: 14, kva: 14 },
    ]);
  });

  it('does not acknowledge a message the database failed to store: the broker sends it again, and it is stored', async () => {
    const meter = await insertMeter(t.db, org.accountId);
    const gateway = await gatewayOf([meter]);
    failNextTransaction = true;
    await publish(gateway.id, { key: gateway.key, ...readingsOf(meter, 5) });
    // Stored once the broker sent the message again: nothing was answered for the failure.
    expect(await storedOnce(meter.id)).toEqual([
      { ts: TS, import_kwh: 5, export_kwh: 0, kvarh: 0, power_kw: 10, kva: 10 },
    ]);
    expect(failNextTransaction).toBe(false);
    await handledSoFar(gateway);
  });
});
