import type { Database, Executor } from '../../db/types.ts';
import type { Caller, SignInAdmission } from '../../http/admission.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { invalidCredentials } from '../../http/errors.ts';
import type { AccessTokens } from './access-tokens.ts';
import { authRepository as repo, type UserRow } from './auth.repository.ts';
import { createPasswordHasher, type PasswordHashing } from './passwords.ts';
import { hashRefreshToken, newRefreshToken } from './refresh-tokens.ts';

export interface AuthServiceDeps {
  db: Database;
  tokens: AccessTokens;
  refreshTokenTtlS: number;
  now: () => Date;
  /** Argon2id parameters of new hashes (OWASP's when absent). */
  passwordHashing?: PasswordHashing;
  /**
   * Hashing and verifying a password takes some 20 ms of a core: admitted as a sign-in, client
   * addresses in turn, so that a flood of sign-ins takes no more than SIGN_IN_CONCURRENCY cores.
   */
  admission: SignInAdmission;
}

export interface Credentials {
  email: string;
  password: string;
}

const publicUser = (u: UserRow) => ({ id: u.id, email: u.email, created_at: u.created_at });

export function createAuthService({ db, tokens, refreshTokenTtlS, now, passwordHashing, admission }: AuthServiceDeps) {
  const passwords = createPasswordHasher(passwordHashing);
  async function issueRefreshToken(tx: Executor, sessionId: string, parentId?: number) {
    const { token, hash } = newRefreshToken();
    const expiresAt = new Date(now().getTime() + refreshTokenTtlS * 1000);
    await repo.insertRefreshToken(tx, { sessionId, hash, expiresAt, parentId });
    return token;
  }

  return {
    /** `client` is the request's address, whose turn the password's hash takes. */
    async signup({ email, password }: Credentials, client: Caller) {
      const passwordHash = await admission.signIn(client, () => passwords.hash(password));
      const user = await db.transaction(async (tx) => {
        const created = await repo.insertUser(tx, email, passwordHash);
        if (created) await repo.insertPersonalAccount(tx, created);
        return created;
      });
      if (!user) throw invalidCredentials('User already registered', 'EMAIL_TAKEN');
      return { user: publicUser(user) };
    },

    /** `client` is the request's address, whose turn the password's check takes. */
    async login({ email, password }: Credentials, client: Caller) {
      const user = await repo.findUserByEmail(db, email);
      if (!(await admission.signIn(client, () => passwords.verify(user?.password_hash, password))) || !user) {
        throw invalidCredentials('Invalid login credentials');
      }
      const { sessionId, refreshToken } = await db.transaction(async (tx) => {
        const id = await repo.insertSession(tx, user.id);
        return { sessionId: id, refreshToken: await issueRefreshToken(tx, id) };
      });
      const access = await tokens.sign({ userId: user.id, email: user.email, sessionId });
      return {
        access_token: access.token,
        token_type: 'bearer',
        expires_in: access.expiresAt - access.issuedAt,
        expires_at: access.expiresAt,
        refresh_token: refreshToken,
        user: publicUser(user),
      };
    },

    /**
     * Rotates a refresh token. Each token is single use: a second use means it was stolen or
     * replayed, so the whole session (every token descended from that login) is revoked.
     */
    async refresh(refreshToken: string) {
      const at = now();
      const outcome = await db.transaction(async (tx) => {
        const row = await repo.lockRefreshToken(tx, hashRefreshToken(refreshToken));
        if (!row || row.revoked_at) return { error: 'Invalid refresh token', code: 'REFRESH_TOKEN_INVALID' } as const;
        if (row.used_at) {
          await repo.revokeSession(tx, row.session_id, at);
          return {
            error: 'Refresh token already used; the session has been revoked',
            code: 'REFRESH_TOKEN_REUSED',
          } as const;
        }
        if (row.expires_at <= at) return { error: 'Refresh token expired', code: 'REFRESH_TOKEN_INVALID' } as const;
        await repo.markRefreshTokenUsed(tx, row.id, at);
        return { row, token: await issueRefreshToken(tx, row.session_id, row.id) };
      });
      // The revocation above must commit, so the 401 is thrown after the transaction.
      if ('error' in outcome) throw invalidCredentials(outcome.error ?? 'Invalid refresh token', outcome.code);
      const { row, token } = outcome;
      const access = await tokens.sign({ userId: row.user_id, email: row.email, sessionId: row.session_id });
      return {
        access_token: access.token,
        token_type: 'bearer',
        expires_at: access.expiresAt,
        refresh_token: token,
        user: publicUser({ id: row.user_id, email: row.email, created_at: row.created_at }),
      };
    },

    async logout(auth: AuthContext) {
      await repo.revokeSession(db, auth.sessionId, now());
    },

    organizations: (auth: AuthContext) => repo.organizationsOf(db, auth.userId),

    async organizationsOfUser(auth: AuthContext, userId: string) {
      const rows = await repo.sharedOrganizations(db, userId, auth.userId);
      return rows.map((r) => ({ ...r, requested_by: auth.userId }));
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
