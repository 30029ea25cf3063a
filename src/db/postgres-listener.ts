import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { ListenerState, Subscription } from './types.ts';

/** Payloads of heartbeats (the listener's and other processes'): never passed on. */
const HEARTBEAT_PREFIX = 'ums-heartbeat:';
/** Heartbeats per staleness bound: one late heartbeat leaves time for the next before the bound. */
const HEARTBEATS_PER_BOUND = 4;
/** Without a heartbeat back (or a connection made) for this many bounds, the connection is replaced. */
const BOUNDS_BEFORE_RECONNECT = 3;
/** The pause before connecting again after a loss. */
const RECONNECT_MS = 1000;
/** TCP keepalive on the LISTEN connection: the operating system probes an idle peer after this. */
const KEEPALIVE_DELAY_MS = 5000;

/** The socket of each LISTEN client: made here and handed to node-postgres by its `stream` option. */
const sockets = new WeakMap<pg.Client, net.Socket>();

function newClient(connectionString: string): pg.Client {
  const socket = new net.Socket();
  const client = new pg.Client({
    connectionString,
    stream: () => socket,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  });
  sockets.set(client, socket);
  return client;
}

/** Closes a connection at once, also one whose peer no longer answers (end() would wait for it). */
function discard(client: pg.Client): void {
  client.removeAllListeners();
  client.on('error', () => {});
  sockets.get(client)?.destroy();
}

/**
 * LISTEN on a dedicated connection (a pooled one would be returned and reused), with TCP keepalive
 * and a heartbeat: a NOTIFY to itself on the same connection every staleMs / 4. Notifications
 * arrive in the order their transactions committed, so once a heartbeat sent at time s has come
 * back, every notification committed before s has arrived: the subscription is current while the
 * last heartbeat back was sent at most staleMs ago. A connection that drops, or whose heartbeat
 * stays away for 3 x staleMs (a peer gone without a reset), is replaced, a second after.
 */
export function listenOn(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
  onState: (state: ListenerState) => void,
  staleMs: number,
): Subscription & { connect(): Promise<void> } {
  const heartbeatPrefix = `${HEARTBEAT_PREFIX}${randomUUID()}:`;
  let stopped = false;
  let client: pg.Client | undefined;
  let state: ListenerState | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** When the current connection attempt began. */
  let attemptStartedAt = 0;
  /** When the last heartbeat back (or the LISTEN) was sent: every notification committed before has arrived. */
  let currentAsOf = Number.NEGATIVE_INFINITY;
  /** Heartbeats on their way, by payload, with the time each was sent (in the order sent). */
  const sent = new Map<string, number>();
  let heartbeats = 0;

  const report = (next: ListenerState) => {
    if (state === next) return;
    state = next;
    onState(next);
  };

  const isCurrent = () => state === 'listening' && performance.now() - currentAsOf <= staleMs;

  function lost() {
    if (stopped || retry) return;
    report('lost');
    if (client) discard(client);
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  }

  function heartbeatBack(payload: string) {
    const sentAt = sent.get(payload);
    if (sentAt === undefined) return;
    // It came after every heartbeat sent before it: those are answered too.
    for (const earlier of sent.keys()) {
      sent.delete(earlier);
      if (earlier === payload) break;
    }
    currentAsOf = Math.max(currentAsOf, sentAt);
    if (state === 'late') report('listening');
  }

  async function connect(): Promise<void> {
    const attempt = newClient(connectionString);
    client = attempt;
    attemptStartedAt = performance.now();
    attempt.on('error', lost);
    attempt.on('end', lost);
    attempt.on('notification', ({ payload = '' }) => {
      if (!payload.startsWith(HEARTBEAT_PREFIX)) onPayload(payload);
      else if (payload.startsWith(heartbeatPrefix)) heartbeatBack(payload);
    });
    try {
      await attempt.connect();
      const listenSentAt = performance.now();
      await attempt.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (client !== attempt) return discard(attempt); // stopped or given up on meanwhile
      sent.clear();
      currentAsOf = listenSentAt;
      report('listening');
    } catch {
      if (client === attempt) lost();
    }
  }

  function sendHeartbeat(to: pg.Client) {
    if (sent.size > 0) return; // one on its way at a time: a stalled connection does not pile them up
    const payload = `${heartbeatPrefix}${++heartbeats}`;
    sent.set(payload, performance.now());
    to.query('SELECT pg_notify($1, $2)', [channel, payload]).catch(() => {});
  }

  const tick = setInterval(() => {
    if (stopped || !client) return;
    const now = performance.now();
    if (state === 'listening' || state === 'late') {
      if (now - currentAsOf > staleMs) report('late');
      if (now - currentAsOf > staleMs * BOUNDS_BEFORE_RECONNECT) return lost();
      sendHeartbeat(client);
    } else if (now - attemptStartedAt > staleMs * BOUNDS_BEFORE_RECONNECT) {
      lost();
    }
  }, staleMs / HEARTBEATS_PER_BOUND);
  tick.unref();

  return {
    connect,
    isCurrent,
    async stop() {
      stopped = true;
      clearInterval(tick);
      if (retry) clearTimeout(retry);
      const last = client;
      client = undefined;
      if (!last) return;
      last.removeAllListeners();
      last.on('error', () => {});
      // A peer that no longer answers would keep end() waiting: closed at once after a while.
      const waited = new Promise((resolve) => setTimeout(resolve, RECONNECT_MS).unref());
      await Promise.race([last.end().catch(() => {}), waited]);
      discard(last);
    },
  };
}
