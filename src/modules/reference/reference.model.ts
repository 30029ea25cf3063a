/**
 * What other modules may use of the reference data (docs/ARCHITECTURE.md, "Layers"): its
 * vocabulary, a DSO, and the records of DSOs and schedules in answers. Every other file of the
 * module is its own.
 */
export { dsoRecord, scheduleRecord } from './reference.responses.ts';
export {
  type DayType,
  type Dso,
  ITEM_TYPE_CODES,
  type ItemTypeCode,
  type Period,
  SEASONS,
  type Season,
  TOU_PERIODS,
} from './vocabulary.ts';
