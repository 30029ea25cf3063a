import { listEnvelope, okEnvelope } from '../../http/responses.ts';
import { userRecord } from '../auth/auth.model.ts';

export const adminResponses = {
  created: okEnvelope(userRecord, 'The new user, with a personal account'),
  users: listEnvelope(userRecord, 'A page of users', 1),
};
