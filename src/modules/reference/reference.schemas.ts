import { z } from 'zod';
import { recordId } from '../../http/fields.ts';

export const scheduleListQuery = z.object({ dso_id: recordId.optional().describe('Only the schedules of this DSO') });
export const scheduleIdParams = z.object({ id: recordId.describe('Time-of-use schedule id') });
