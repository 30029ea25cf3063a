import { errors, jwtVerify, SignJWT } from 'jose';
import type { AuthContext } from '../../http/auth-context.ts';
import type { TokenCheck, TokenVerifier } from '../../http/authenticate.ts';
import type { SigningKeys } from './signing-keys.ts';

const ISSUER = 'utility-management-service';
const VERIFIED_CACHE_SIZE = 10_000;
/** How far ahead of this server's clock a token's issue time may lie: the clock skew between servers. */
const MAX_IAT_AHEAD_S = 60;

export interface AccessTokens extends TokenVerifier {
  /** A token for subject, with its issue and expiry times (seconds since 1970). */
  sign(subject: AuthContext): Promise<{ token: string; issuedAt: number; expiresAt: number }>;
  /** Refused as invalid: malformed, signed by another key, without expiry, issue time or subject, issued more than 60 s ahead; else expired. */
  verify(token: string): Promise<TokenCheck>;
}

const INVALID: TokenCheck = { refused: 'invalid' };
const EXPIRED: TokenCheck = { refused: 'expired' };

export function createAccessTokens(keys: SigningKeys, ttlSeconds: number, now: () => Date): AccessTokens {
  // A client sends the same token with every request: its signature is checked once, and the
  // result is kept until the token expires (the expiry is still checked on every use).
  const verified = new Map<string, { auth: AuthContext; expiresAt: number }>();
  function remember(token: string, auth: AuthContext, expiresAt: number) {
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
    verified.set(token, { auth, expiresAt });
  }

  return {
    async sign({ userId, email, sessionId }) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const expiresAt = issuedAt + ttlSeconds;
      const token = await new SignJWT({ email, session_id: sessionId })
        .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(keys.privateKey);
      return { token, issuedAt, expiresAt };
    },
    async verify(token) {
      const nowSeconds = now().getTime() / 1000;
      const known = verified.get(token);
      if (known) return known.expiresAt > nowSeconds ? { auth: known.auth } : EXPIRED;
      try {
        const { payload } = await jwtVerify(token, keys.publicKey, {
          issuer: ISSUER,
          algorithms: ['EdDSA'],
          requiredClaims: ['exp', 'sub', 'iat'],
          currentDate: now(),
        });
        // jose checks iat only against a maximum age; a token from the future is no token of ours.
        if (payload.iat! > nowSeconds + MAX_IAT_AHEAD_S) return INVALID;
        if (typeof payload.sub !== 'string' || typeof payload.session_id !== 'string') return INVALID;
        const auth = { userId: payload.sub, email: String(payload.email ?? ''), sessionId: payload.session_id };
        remember(token, auth, payload.exp!);
        return { auth };
      } catch (error) {
        return error instanceof errors.JWTExpired ? EXPIRED : INVALID;
      }
    },
  };
}
