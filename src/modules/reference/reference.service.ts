import type { Executor } from '../../db/types.ts';
import { notFound } from '../../http/errors.ts';
import { referenceRepository as repo } from './reference.repository.ts';

/** Global, read-only reference data: any signed-in user may read it, no organization involved. */
export function createReferenceService(db: Executor) {
  return {
    itemTypes: () => repo.itemTypes(db),
    dsos: () => repo.dsos(db),
    schedules: (dsoId: number | undefined) => repo.schedules(db, dsoId),
    async schedule(id: number) {
      const schedule = await repo.findSchedule(db, id);
      if (!schedule) throw notFound('Time-of-use schedule');
      return schedule;
    },
  };
}

export type ReferenceService = ReturnType<typeof createReferenceService>;
