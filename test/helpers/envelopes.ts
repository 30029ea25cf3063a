/** Expected failure envelopes, spelled out here rather than imported from src so the tests stay independent. */
export const failure = (message: string, error: string) => ({ success: false, message, error });

export const invalid = (error: string) => failure('Invalid request body', error);
export const forbidden = (error: string) => failure('Forbidden', error);
export const conflict = (error: string) => failure('Conflict', error);
export const notFound = (what: string) => failure('Not found', `${what} not found`);
export const ownedByAnother = (what: string) => forbidden(`${what} belongs to another organization`);

export const AUTH_REQUIRED = failure('Authentication required', 'Invalid or missing bearer token');
export const FORBIDDEN_NOT_MEMBER = forbidden('You are not a member of this organization');
export const FORBIDDEN_ROLE = forbidden('Your role does not allow this action');
export const READ_ONLY = failure('Catalogue is read-only', 'Catalogue is read-only');
