import type { KeptAnswers } from '../../http/kept-answers.ts';
import type { App } from '../../http/types.ts';
import { registerTimeseriesRoutes } from './timeseries.routes.ts';
import { createTimeseriesService, type TimeseriesDeps } from './timeseries.service.ts';

/** Electricity readings: ingest, profiles, latest power and energy sums. */
export function registerTimeseriesModule(app: App, deps: TimeseriesDeps, keptAnswers: KeptAnswers): void {
  registerTimeseriesRoutes(app, createTimeseriesService(deps), keptAnswers);
}
