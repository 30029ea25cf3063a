import type { Executor } from '../../db/types.ts';
import type { App } from '../../http/types.ts';
import { referenceRepository } from './reference.repository.ts';
import { registerReferenceRoutes } from './reference.routes.ts';
import { createReferenceService } from './reference.service.ts';

interface ReferenceDeps {
  db: Executor;
}

/** What tariffs read of reference data, inside their own transactions: DSOs and schedules. */
export const createReferenceReader = () => ({
  dso: referenceRepository.findDso,
  scheduleExists: referenceRepository.scheduleExists,
  schedule: referenceRepository.findSchedule,
});

/** Global, read-only reference data: item types, DSOs and time-of-use schedules. */
export function registerReferenceModule(app: App, { db }: ReferenceDeps): void {
  registerReferenceRoutes(app, createReferenceService(db));
}
