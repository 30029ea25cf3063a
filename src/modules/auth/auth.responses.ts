import { z } from 'zod';
import { ROLES } from '../../db/memberships.ts';
import { EXAMPLE } from '../../http/examples.ts';
import { emailValue, integer, listEnvelope, okEnvelope, timestamp, uuidValue } from '../../http/responses.ts';

const USER_EXAMPLE = { id: EXAMPLE.userId, email: 'demo@example.com', created_at: EXAMPLE.createdAt };

export const userRecord = z
  .strictObject({
    id: uuidValue,
    email: emailValue.describe('Lower-case'),
    created_at: timestamp,
  })
  .meta({ examples: [USER_EXAMPLE] });

const ACCESS_TOKEN_EXAMPLE =
  'eyJhbGciOiJFZERTQSIsImtpZCI6IjIwZjk4ZjMyNWEzYjc5OTEiLCJ0eXAiOiJKV1QifQ.eyJlbWFpbCI6ImRlbW9AZXhhbXBsZS5jb20ifQ.Ebk9jNsed07fXu6';

const tokens = {
  access_token: z.string().describe('JWT (EdDSA); send it as `Authorization: Bearer <token>`'),
  token_type: z.literal('bearer'),
  expires_at: integer.describe('Expiry of the access token, seconds since 1970 (UTC)'),
  refresh_token: z.string().describe('Single use, for POST /api/v1/auth/refresh'),
  user: userRecord,
};

const tokensExample = {
  access_token: ACCESS_TOKEN_EXAMPLE,
  token_type: 'bearer',
  expires_at: 1795453201,
  refresh_token: 'O_7vR3JmUiz2vkFMo67XKu1sKX4iDEjbAExMAkbnBmI',
  user: USER_EXAMPLE,
};

const session = z
  .strictObject({ ...tokens, expires_in: integer.describe('Lifetime of the access token in seconds') })
  .meta({ examples: [{ ...tokensExample, expires_in: 3600 }] });

const refreshed = z.strictObject(tokens).meta({ examples: [tokensExample] });

const ORGANIZATION_EXAMPLE = {
  id: EXAMPLE.accountId,
  name: 'Demo Utilities',
  is_personal_account: false,
  role: 'OWNER',
};

const organizationOfUser = z
  .strictObject({
    id: uuidValue.describe('The organization; use it as account_id'),
    name: z.string(),
    is_personal_account: z.boolean(),
    role: z.enum(ROLES).describe("The user's role in it"),
  })
  .meta({ examples: [ORGANIZATION_EXAMPLE] });

const sharedOrganization = organizationOfUser
  .extend({
    user_id: uuidValue.describe('The user asked about'),
    requested_by: uuidValue.describe('The caller'),
  })
  .meta({ examples: [{ ...ORGANIZATION_EXAMPLE, user_id: EXAMPLE.userId, requested_by: EXAMPLE.userId }] });

export const authResponses = {
  signup: okEnvelope(z.strictObject({ user: userRecord }).meta({ examples: [{ user: USER_EXAMPLE }] }), 'Signed up'),
  login: okEnvelope(session, 'A new session'),
  refresh: okEnvelope(refreshed, 'A new token pair; the refresh token sent is used up'),
  organizations: listEnvelope(organizationOfUser, 'The organizations of the caller, with its role in each', 2),
  organizationsOfUser: listEnvelope(
    sharedOrganization,
    'The organizations of the user that the caller is also a member of, with the role of the user',
    2,
  ),
};
