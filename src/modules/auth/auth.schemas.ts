import { z } from 'zod';
import { email, uuid } from '../../http/fields.ts';

export const credentialsBody = z.strictObject({
  email: email.transform((e) => e.toLowerCase()).describe('E-mail address (stored lower-case)'),
  password: z.string().min(8).max(128).describe('8 to 128 characters'),
});

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
