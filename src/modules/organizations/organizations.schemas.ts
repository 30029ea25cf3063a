import { z } from 'zod';
import { ROLES } from '../../db/memberships.ts';
import { email, jsonObject, text, uuid } from '../../http/fields.ts';
import { listQuerySchema } from '../../http/list.ts';

export const organizationIdParams = z.object({ id: uuid });
export const memberParams = z.object({ id: uuid, userId: uuid });

export const createOrganizationBody = z.strictObject({
  name: text(1, 200),
  primary_owner_user_id: uuid.describe('Must be the caller, who becomes OWNER'),
});

export const updateOrganizationBody = z
  .strictObject({
    name: text(1, 200),
    email: email.nullable(),
    picture_url: z.url().max(2048).nullable(),
    public_data: jsonObject,
  })
  .partial();
export type OrganizationChanges = z.infer<typeof updateOrganizationBody>;

export const addMemberBody = z
  .strictObject({
    userId: uuid.optional().describe('The user to add; or give email'),
    email: email.optional().describe("The user's e-mail address (any case); or give userId"),
    role: z.enum(ROLES),
  })
  .refine((body) => (body.userId === undefined) !== (body.email === undefined), {
    message: 'Give either userId or email',
    path: ['userId'],
  });
export type AddMember = z.infer<typeof addMemberBody>;

export const changeMemberBody = z.strictObject({ role: z.enum(ROLES) });

export const MEMBER_SORT = { created_at: 'm.created_at', email: 'u.email', role: 'm.role' } as const;
export const membersQuery = listQuerySchema(MEMBER_SORT);
