/**
 * What other modules may use of the timeseries (docs/ARCHITECTURE.md, "Layers"): which meters
 * carry electricity or water readings, and the readings ingest the gateways store through. Every other file
 * of the module is its own.
 */
export { isElectricityMeter, type Utility, utilityOf } from './meter-checks.ts';
export type { ReadingsIngest } from './timeseries.module.ts';
