import { jwtVerify, SignJWT } from 'jose';
import type { AuthContext } from '../../http/auth-context.ts';
import type { SigningKeys } from './signing-keys.ts';

const ISSUER = 'utility-management-service';

export interface AccessTokens {
  sign(subject: AuthContext): Promise<{ token: string; expiresAt: number }>;
  /** The caller, or null for a token that is malformed, expired or signed by another key. */
  verify(token: string): Promise<AuthContext | null>;
}

export function createAccessTokens(keys: SigningKeys, ttlSeconds: number, now: () => Date): AccessTokens {
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
      return { token, expiresAt };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, keys.publicKey, {
          issuer: ISSUER,
          algorithms: ['EdDSA'],
          currentDate: now(),
        });
        if (typeof payload.sub !== 'string' || typeof payload.session_id !== 'string') return null;
        return { userId: payload.sub, email: String(payload.email ?? ''), sessionId: payload.session_id };
      } catch {
        return null;
      }
    },
  };
}
