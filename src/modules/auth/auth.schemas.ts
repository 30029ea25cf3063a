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

export const refreshBody = z.strictObject({ refresh_token: z.string().min(1).max(512) });

export const userIdParams = z.object({ userId: uuid });
