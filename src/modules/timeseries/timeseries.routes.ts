import { ok, okAll } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { energySumsBody, ingestBody, meterRangeQuery, profileQuery } from './timeseries.schemas.ts';
import type { TimeseriesService } from './timeseries.service.ts';

const tags = ['Electricity timeseries'];
const base = '/api/v1/timeseries/electricity';
const INGEST_BODY_LIMIT = 16 * 1024 * 1024;

export function registerTimeseriesRoutes(app: App, timeseries: TimeseriesService): void {
  app.post(`${base}/readings`, { bodyLimit: INGEST_BODY_LIMIT, schema: { tags, body: ingestBody } }, async (req) =>
    ok(await timeseries.ingest(req.auth, req.body)),
  );
  app.get(`${base}/energy-profile`, { schema: { tags, querystring: profileQuery } }, async (req) =>
    ok(await timeseries.energyProfile(req.auth, req.query)),
  );
  app.get(`${base}/power-profile`, { schema: { tags, querystring: profileQuery } }, async (req) =>
    ok(await timeseries.powerProfile(req.auth, req.query)),
  );
  app.get(`${base}/latest-power`, { schema: { tags, querystring: meterRangeQuery } }, async (req) =>
    ok(await timeseries.latestPower(req.auth, req.query)),
  );
  app.get(`${base}/energy-sum`, { schema: { tags, querystring: meterRangeQuery } }, async (req) =>
    ok(await timeseries.energySum(req.auth, req.query)),
  );
  app.post(`${base}/energy-sums`, { schema: { tags, body: energySumsBody } }, async (req) =>
    okAll(await timeseries.energySums(req.auth, req.body)),
  );
}
