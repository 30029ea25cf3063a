import type { App } from '../../http/types.ts';
import { registerTimeseriesRoutes } from './timeseries.routes.ts';
import { createTimeseriesService, type TimeseriesDeps } from './timeseries.service.ts';

/** Electricity readings: ingest, profiles, latest power and energy sums. */
export function registerTimeseriesModule(app: App, deps: TimeseriesDeps): void {
  registerTimeseriesRoutes(app, createTimeseriesService(deps));
}
