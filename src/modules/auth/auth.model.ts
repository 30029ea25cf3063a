/**
 * What other modules may use of auth (docs/ARCHITECTURE.md, "Layers"): the public half of the
 * signing keys (the JWKS) and a user's record in answers. Every other file of the module is its own.
 */
export { userRecord } from './auth.responses.ts';
export { publicJwks, type SigningKeys } from './signing-keys.ts';
