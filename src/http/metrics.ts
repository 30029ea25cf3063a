import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ReadCache } from '../db/read-cache.ts';
import type { Database } from '../db/types.ts';
import type { App } from './types.ts';

/** The service's Prometheus metrics; one registry per application instance. */
export function createMetrics(db: Database, cache: Pick<ReadCache, 'stats'>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections_in_use',
    help: 'Database connections checked out of the pool (the embedded database has one)',
    registers: [registry],
    collect() {
      this.set(db.connectionsInUse());
    },
  });
  registerCacheMetrics(registry, cache);
  if (db.replica()) registerReplicaMetrics(registry, db);
  const schedulerRuns = new Counter({
    name: 'transition_scheduler_runs_total',
    help: 'Runs of the tariff transition scheduler, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const keptBodies = new Counter({
    name: 'ums_kept_answer_bodies_total',
    help: 'Bodies of kept answers (profiles) made, by encoding: once per kept result and encoding',
    labelNames: ['encoding'] as const,
    registers: [registry],
  });
  const billsPriced = new Counter({
    name: 'ums_bills_priced_total',
    help: 'Bills priced by the engine (each bill a meter, tariff and period); a bill answered as kept is not counted',
    registers: [registry],
  });
  return { registry, requests, duration, schedulerRuns, keptBodies, billsPriced };
}

type Metrics = ReturnType<typeof createMetrics>;

/** The read cache's state and lookups, read from the cache when scraped. */
function registerCacheMetrics(registry: Registry, cache: Pick<ReadCache, 'stats'>) {
  new Gauge({
    name: 'ums_cache_listening',
    help: 'Whether the read cache is in use: 1 while its change notices arrive within CACHE_STALE_MS, 0 while it is bypassed',
    registers: [registry],
    collect() {
      this.set(cache.stats().listening ? 1 : 0);
    },
  });
  const lookups = [
    ['ums_cache_hits_total', 'Read cache lookups answered from the cache', 'hits'],
    ['ums_cache_misses_total', 'Read cache lookups that read the database (and may keep the result)', 'misses'],
    [
      'ums_cache_bypasses_total',
      'Read cache lookups that read the database because the cache was bypassed',
      'bypasses',
    ],
  ] as const;
  for (const [name, help, count] of lookups) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(cache.stats()[count]);
      },
    });
  }
}

/** The replica's state (DATABASE_REPLICA_URL), read when scraped. */
function registerReplicaMetrics(registry: Registry, db: Pick<Database, 'replica'>) {
  new Gauge({
    name: 'ums_replica_in_use',
    help: 'Whether the expensive reads go to the replica: 0 while it is bypassed (down, or lagging more than REPLICA_MAX_LAG_MS)',
    registers: [registry],
    collect() {
      this.set(db.replica()?.inUse ? 1 : 0);
    },
  });
  new Gauge({
    name: 'ums_replica_lag_ms',
    help: "How far the replica's replay is behind the primary, in ms",
    registers: [registry],
    collect() {
      this.set(db.replica()?.lagMs ?? 0);
    },
  });
}

/**
 * Counts and times every request by its route pattern (never the raw URL: bounded label values).
 * `/metrics` needs no token (extensions.md); a scrape renders every metric (some 3 ms of the main
 * thread), so each client address may scrape scrapesPerMin times a minute (a scraper every few
 * seconds is far below the default 120), past them 429; 0: no limit.
 */
export function registerMetrics(app: App, metrics: Metrics, scrapesPerMin: number): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, reply.elapsedTime / 1000);
  });
  const config = { public: true, rateLimit: scrapesPerMin > 0 && { max: scrapesPerMin, timeWindow: '1 minute' } };
  app.get('/metrics', { config, schema: { hide: true } }, async (_req, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
