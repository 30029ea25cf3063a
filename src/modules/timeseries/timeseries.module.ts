import type { Admission } from '../../http/admission.ts';
import type { KeptAnswers } from '../../http/kept-answers.ts';
import type { App } from '../../http/types.ts';
import { createIngestParser } from './ingest-body/ingest-parser.ts';
import { registerTimeseriesRoutes } from './timeseries.routes.ts';
import { createTimeseriesService, type TimeseriesDeps } from './timeseries.service.ts';

/** Electricity readings: ingest, profiles, latest power and energy sums. */
export function registerTimeseriesModule(
  app: App,
  {
    ingestBodies,
    ...deps
  }: Omit<TimeseriesDeps, 'prepareIngest'> & {
    ingestBodies: { small: Admission; receiving: Admission; parsing: Admission };
  },
  keptAnswers: KeptAnswers,
): void {
  const ingestParser = createIngestParser(ingestBodies);
  app.addHook('onClose', () => ingestParser.close());
  const service = createTimeseriesService({ ...deps, prepareIngest: ingestParser.prepare });
  registerTimeseriesRoutes(app, service, keptAnswers, ingestParser);
}
