import type { AuthContext } from '../../http/auth-context.ts';
import type { KeptAnswers } from '../../http/kept-answers.ts';
import type { App } from '../../http/types.ts';
import { createIngestParser } from './ingest-body/ingest-parser.ts';
import { registerTimeseriesRoutes } from './timeseries.routes.ts';
import { createTimeseriesService, type TimeseriesDeps, type TimeseriesService } from './timeseries.service.ts';
import { registerWaterRoutes } from './water.routes.ts';

/** How other modules store readings: a readings route's JSON body, parsed and validated as the route does, stored for the caller. */
export interface ReadingsIngest {
  storeJson(auth: AuthContext, body: Buffer): ReturnType<TimeseriesService['ingest']>;
}

/** Electricity readings: ingest, profiles, latest power and energy sums; water readings, register reads, volume sums and profiles. */
export function registerTimeseriesModule(
  app: App,
  deps: Omit<TimeseriesDeps, 'prepareIngest'>,
  keptAnswers: KeptAnswers,
): ReadingsIngest {
  const ingestParser = createIngestParser(deps.admission);
  app.addHook('onClose', () => ingestParser.close());
  const service = createTimeseriesService({ ...deps, prepareIngest: ingestParser.prepare });
  registerTimeseriesRoutes(app, service, keptAnswers, ingestParser);
  registerWaterRoutes(app, service, keptAnswers);
  return {
    storeJson: async (auth, body) => service.ingest(auth, await ingestParser.parse(auth, body)),
  };
}
