import { z } from 'zod';
import { dateTimeIssue, dateTimeText, storable, uuid } from '../../http/fields.ts';

const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const range = z.object({
  account_id: uuid,
  start: dateTimeText('Start of the period (inclusive)'),
  end: dateTimeText('End of the period (exclusive)'),
});

function validPeriod(query: { start: string; end: string }, ctx: z.RefinementCtx) {
  // Object refinements also run when a field failed: its own message says enough.
  if (dateTimeIssue(query.start) || dateTimeIssue(query.end)) return;
  const span = Date.parse(query.end) - Date.parse(query.start);
  if (span <= 0) ctx.addIssue({ code: 'custom', path: ['end'], message: 'end must be after start' });
  else if (span > MAX_DAYS * DAY_MS)
    ctx.addIssue({ code: 'custom', path: ['end'], message: `The period may span at most ${MAX_DAYS} days` });
}

export const tariffCostQuery = range.extend({ meter_sn: storable(z.string().min(1).max(64)) }).superRefine(validPeriod);
export type TariffCostQuery = z.infer<typeof tariffCostQuery>;

export const buildingCostQuery = range.superRefine(validPeriod);
export type BuildingCostQuery = z.infer<typeof buildingCostQuery>;
