import { z } from 'zod';
import { ROLES } from '../../db/memberships.ts';
import { EXAMPLE } from '../../http/examples.ts';
import { listEnvelope, okEnvelope, timestamp, uuidValue } from '../../http/responses.ts';

const ORGANIZATION_EXAMPLE = {
  id: EXAMPLE.accountId,
  name: 'Demo Utilities',
  email: null,
  picture_url: null,
  public_data: {},
  is_personal_account: false,
  primary_owner_user_id: EXAMPLE.userId,
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.createdAt,
};

const organization = z
  .strictObject({
    id: uuidValue.describe('Also the account_id of organization-scoped requests'),
    name: z.string(),
    email: z.string().nullable(),
    picture_url: z.string().nullable(),
    public_data: z.record(z.string(), z.unknown()).describe('Free-form JSON object'),
    is_personal_account: z.boolean(),
    primary_owner_user_id: uuidValue.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ examples: [ORGANIZATION_EXAMPLE] });

const member = z
  .strictObject({
    user_id: uuidValue,
    account_id: uuidValue,
    role: z.enum(ROLES),
    email: z.string(),
    is_primary_owner: z.boolean(),
    created_at: timestamp.describe('When the user joined'),
  })
  .meta({
    examples: [
      {
        user_id: EXAMPLE.userId,
        account_id: EXAMPLE.accountId,
        role: 'OWNER',
        email: 'demo@example.com',
        is_primary_owner: true,
        created_at: EXAMPLE.createdAt,
      },
    ],
  });

export const organizationResponses = {
  created: okEnvelope(organization, 'The new organization; the caller is its OWNER'),
  organization: okEnvelope(organization, 'The organization'),
  members: listEnvelope(member, 'A page of the members'),
  member: okEnvelope(member, 'The new member'),
  changedMember: okEnvelope(member, 'The member with the new role'),
};
