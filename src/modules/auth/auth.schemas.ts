import { z } from 'zod';
import { uuid } from '../../http/fields.ts';

export const loginBody = z.strictObject({
  email: z
    .string()
    .min(1)
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: z.string().min(1).max(1024),
});

/** The refresh token in the body (API clients), or none: the console's is in its cookie. */
export const refreshBody = z
  .strictObject({
    refresh_token: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe('Required unless the refresh cookie (ums_refresh_token) carries it'),
  })
  .nullish();

export const userIdParams = z.object({ userId: uuid });
