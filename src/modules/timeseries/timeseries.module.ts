import type { KeptAnswers } from '../../http/kept-answers.ts';
import type { App } from '../../http/types.ts';
import { createIngestParser } from './ingest-body/ingest-parser.ts';
import { registerTimeseriesRoutes } from './timeseries.routes.ts';
import { createTimeseriesService, type TimeseriesDeps } from './timeseries.service.ts';

/** Electricity readings: ingest, profiles, latest power and energy sums. */
export function registerTimeseriesModule(
  app: App,
  deps: Omit<TimeseriesDeps, 'prepareIngest'>,
  keptAnswers: KeptAnswers,
): void {
  const ingestParser = createIngestParser(deps.admission);
  app.addHook('onClose', () => ingestParser.close());
  const service = createTimeseriesService({ ...deps, prepareIngest: ingestParser.prepare });
  registerTimeseriesRoutes(app, service, keptAnswers, ingestParser);
}
