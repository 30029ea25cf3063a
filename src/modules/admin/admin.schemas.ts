import { z } from 'zod';
import { uuid } from '../../http/fields.ts';
import { listQuerySchema } from '../../http/list.ts';

export const USER_SORT = { created_at: 'u.created_at', email: 'u.email', id: 'u.id' } as const;
export const userListQuery = listQuerySchema(USER_SORT);
export const userIdParams = z.object({ id: uuid });
