import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { AuthContext } from '../../http/auth-context.ts';
import { failure } from '../../http/envelope.ts';
import { mapError } from '../../http/error-handler.ts';
import { badRequest, INVALID_TOKEN, unauthorized } from '../../http/errors.ts';
import { type GatewayKeys, gatewayAuth } from '../../http/gateway-callers.ts';
import type { ReadingsIngest } from '../timeseries/timeseries.module.ts';

/** Where gateways publish readings: `ums/<gateway id>/readings`. */
export const READINGS_TOPICS = 'ums/+/readings';
const READINGS_TOPIC = /^ums\/([^/]+)\/readings$/;
/** Where a refused message is answered, with the error envelope. */
export const errorsTopic = (gatewayId: string) => `ums/${gatewayId}/errors`;
/** How long the broker keeps the service's session (and the messages sent to it) while it is away: a week. */
const SESSION_EXPIRY_S = 7 * 24 * 60 * 60;
/** As the readings route's body (16 MiB): a larger message is refused unread. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** MQTT 5 reason codes of the acknowledgement of a refused message (the broker drops it either way). */
const REASON = { stored: 0, unspecified: 128, notAuthorized: 135, payloadFormatInvalid: 153 } as const;

const reasonOf = (status: number) =>
  status === 401 || status === 403
    ? REASON.notAuthorized
    : status === 400
      ? REASON.payloadFormatInvalid
      : REASON.unspecified;

export interface MqttReadingsDeps {
  url: string;
  clientId: string;
  keys: GatewayKeys;
  readings: ReadingsIngest;
  log: FastifyBaseLogger;
}

/** The message's key and the readings body without it (the route's body); 400 when it is no JSON object. */
function splitKey(payload: Buffer): { key: unknown; body: Buffer } {
  if (payload.length > MAX_MESSAGE_BYTES) throw badRequest('body: The message is larger than 16 MiB');
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    throw badRequest('body: Malformed JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('body: Invalid input: expected object');
  }
  const { key, ...body } = value as Record<string, unknown>;
  return { key, body: Buffer.from(JSON.stringify(body)) };
}

/**
 * Readings published by gateways to the broker at `url` (extensions §13.9): subscribed to
 * `ums/+/readings` at QoS 1 in a persistent session (a fixed client id, clean false), so that
 * messages sent while the service is away wait at the broker. Each message is the readings route's
 * body plus `key`, checked with the same rules as `authorization: Gateway <key>`, and acknowledged
 * only once stored (or refused: its error envelope published to `ums/<gateway id>/errors` first).
 * One that fails for the service's own reason (the database down) is not acknowledged: the
 * connection is dropped and the broker sends it again on the next.
 */
export function createMqttReadings({ url, clientId, keys, readings, log }: MqttReadingsDeps) {
  let client: MqttClient | undefined;

  async function callerOf(topicGatewayId: string, key: unknown): Promise<AuthContext> {
    const gateway = typeof key === 'string' ? await keys.check(key) : undefined;
    if (!gateway || String(gateway.id) !== topicGatewayId) throw unauthorized(INVALID_TOKEN, true);
    return gatewayAuth(gateway);
  }

  async function store(topicGatewayId: string, payload: Buffer) {
    const { key, body } = splitKey(payload);
    await readings.storeJson(await callerOf(topicGatewayId, key), body);
  }

  /** Stores the message, then acknowledges it; a refusal is answered on the errors topic first. */
  async function handle(topic: string, payload: Buffer, acknowledge: (reason: number) => void, retry: () => void) {
    const gatewayId = READINGS_TOPIC.exec(topic)?.[1];
    if (gatewayId === undefined) return acknowledge(REASON.unspecified);
    try {
      await store(gatewayId, payload);
      acknowledge(REASON.stored);
    } catch (error) {
      const mapped = mapError(error as Error);
      if (mapped.status >= 500) {
        log.error({ err: error, topic }, 'MQTT readings not stored; the broker sends them again');
        return retry();
      }
      // Sent before the acknowledgement, not awaited: its own acknowledgement comes as a packet that
      // the client reads only once this message's handling is done.
      client!.publish(
        errorsTopic(gatewayId),
        JSON.stringify(failure(mapped.code, mapped.message, mapped.error)),
        { qos: 1 },
        (sent) => {
          if (sent) log.warn({ err: sent, topic }, 'MQTT error answer not sent');
        },
      );
      acknowledge(reasonOf(mapped.status));
    }
  }

  return {
    /** Connects and subscribes; resolves once subscribed (the broker then sends what waited for the session). */
    async start() {
      client = await mqtt.connectAsync(url, {
        clientId,
        clean: false,
        protocolVersion: 5,
        properties: { sessionExpiryInterval: SESSION_EXPIRY_S },
        customHandleAcks: (topic, message, _packet, done) => {
          handle(
            topic,
            message,
            (reason) => done(reason),
            () => {
              done(new Error('MQTT readings not stored'));
              client?.stream.destroy();
            },
          ).catch((error: unknown) => log.error({ err: error, topic }, 'MQTT message not handled'));
        },
      });
      client.on('error', (error) => log.warn({ err: error }, 'MQTT client error'));
      await client.subscribeAsync(READINGS_TOPICS, { qos: 1 });
      log.info({ topics: READINGS_TOPICS }, 'MQTT readings subscribed');
    },
    async stop() {
      await client?.endAsync();
    },
  };
}
