import { z } from 'zod';
import { SOURCES } from '../../db/energy-sources.ts';
import { INT4_MAX, NOT_PLAIN_DIGITS, uuid } from '../../http/fields.ts';
import { periodFields, validPeriod } from '../../http/period.ts';

/** The most candidate tariffs one comparison names. */
export const MAX_CANDIDATES = 50;

/** `1,2,3`: tariff ids in plain digits, each once (a repeated id is compared once). */
const tariffIds = z
  .string()
  .meta({ pattern: `^[1-9][0-9]{0,8}(?:,[1-9][0-9]{0,8}){0,${MAX_CANDIDATES - 1}}$` })
  .describe(
    `One plain string of comma-separated tariff ids (at most ${MAX_CANDIDATES}), the organization's or the catalogue's`,
  )
  .transform((value, ctx) => {
    const parts = value.split(',');
    if (parts.some((part) => !/^[1-9][0-9]{0,9}$/.test(part) || Number(part) > INT4_MAX)) {
      ctx.addIssue({ code: 'custom', message: `Each tariff id: ${NOT_PLAIN_DIGITS}, comma-separated` });
      return z.NEVER;
    }
    const ids = [...new Set(parts.map(Number))];
    if (ids.length > MAX_CANDIDATES) {
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_CANDIDATES} tariffs` });
      return z.NEVER;
    }
    return ids;
  });

export const comparisonQuery = z
  .object({
    account_id: uuid,
    source: z.enum(SOURCES).default('grid').describe("The block's energy source whose readings are priced"),
    ...periodFields,
    tariff_ids: tariffIds.optional(),
    nmd_kva: z
      .string()
      .regex(/^[0-9]{1,7}(\.[0-9]{1,3})?$/, 'Must be a number in plain decimal digits, at most 3 decimals')
      .transform(Number)
      .pipe(z.number().max(1_000_000))
      .optional()
      .describe(
        'What-if NMD in kVA (0 to 1,000,000) for a meter without a notified maximum demand; without either, the highest half hour of the 12 months before end, rounded up',
      ),
  })
  .superRefine(validPeriod);
export type ComparisonQuery = z.infer<typeof comparisonQuery>;
