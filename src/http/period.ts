import type { z } from 'zod';
import { dateTimeIssue, dateTimeText } from './fields.ts';

/** The longest period a bill is computed for. */
const MAX_PERIOD_DAYS = 366;
const DAY_MS = 86_400_000;

/** A billing period [start, end) as ISO 8601 date-times with Z or an offset. */
export const periodFields = {
  start: dateTimeText('Start of the period (inclusive)'),
  end: dateTimeText('End of the period (exclusive)'),
};

/** Refinement of an object with periodFields: end after start, at most MAX_PERIOD_DAYS. */
export function validPeriod(value: { start: string; end: string }, ctx: z.RefinementCtx) {
  // Object refinements also run when a field failed: its own message says enough.
  if (dateTimeIssue(value.start) || dateTimeIssue(value.end)) return;
  const span = Date.parse(value.end) - Date.parse(value.start);
  if (span <= 0) ctx.addIssue({ code: 'custom', path: ['end'], message: 'end must be after start' });
  else if (span > MAX_PERIOD_DAYS * DAY_MS)
    ctx.addIssue({ code: 'custom', path: ['end'], message: `The period may span at most ${MAX_PERIOD_DAYS} days` });
}
