import { z } from 'zod';
import { storable, uuid } from '../../http/fields.ts';

const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const range = z.object({
  account_id: uuid,
  start: z.iso.datetime({ offset: true }).describe('Start of the period (inclusive), ISO 8601'),
  end: z.iso.datetime({ offset: true }).describe('End of the period (exclusive), ISO 8601'),
});

function validPeriod(query: { start: string; end: string }, ctx: z.RefinementCtx) {
  const span = Date.parse(query.end) - Date.parse(query.start);
  if (span <= 0) ctx.addIssue({ code: 'custom', path: ['end'], message: 'end must be after start' });
  else if (span > MAX_DAYS * DAY_MS)
    ctx.addIssue({ code: 'custom', path: ['end'], message: `The period may span at most ${MAX_DAYS} days` });
}

export const tariffCostQuery = range.extend({ meter_sn: storable(z.string().min(1).max(64)) }).superRefine(validPeriod);
export type TariffCostQuery = z.infer<typeof tariffCostQuery>;

export const buildingCostQuery = range.superRefine(validPeriod);
export type BuildingCostQuery = z.infer<typeof buildingCostQuery>;
