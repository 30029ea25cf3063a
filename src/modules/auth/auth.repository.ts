import type { Executor } from '../../db/types.ts';

export interface UserRow {
  id: string;
  email: string;
  created_at: Date;
}

interface RefreshTokenRow {
  id: number;
  session_id: string;
  used_at: Date | null;
  expires_at: Date;
  revoked_at: Date | null;
  user_id: string;
  email: string;
  created_at: Date;
}

export const authRepository = {
  async findUserByEmail(db: Executor, email: string) {
    const [row] = await db.query<UserRow & { password_hash: string }>(
      'SELECT id, email, created_at, password_hash FROM users WHERE email = $1',
      [email],
    );
    return row;
  },

  async findUser(db: Executor, id: string) {
    const [row] = await db.query<UserRow>('SELECT id, email, created_at FROM users WHERE id = $1', [id]);
    return row;
  },

  /** Inserts the user, or returns undefined when the e-mail is taken. */
  async insertUser(db: Executor, email: string, passwordHash: string) {
    const [row] = await db.query<UserRow>(
      `INSERT INTO users (email, password_hash) VALUES ($1, $2)
       ON CONFLICT (email) DO NOTHING RETURNING id, email, created_at`,
      [email, passwordHash],
    );
    return row;
  },

  async insertPersonalAccount(db: Executor, user: UserRow) {
    const [account] = await db.query<{ id: string }>(
      `INSERT INTO accounts (name, email, is_personal_account, primary_owner_user_id)
       VALUES ($1, $2, true, $3) RETURNING id`,
      [user.email, user.email, user.id],
    );
    await db.query(`INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, 'OWNER')`, [
      account!.id,
      user.id,
    ]);
  },

  async insertSession(db: Executor, userId: string) {
    const [row] = await db.query<{ id: string }>('INSERT INTO auth_sessions (user_id) VALUES ($1) RETURNING id', [
      userId,
    ]);
    return row!.id;
  },

  async insertRefreshToken(
    db: Executor,
    token: { sessionId: string; hash: string; expiresAt: Date; parentId?: number },
  ) {
    await db.query(
      'INSERT INTO refresh_tokens (session_id, token_hash, expires_at, parent_id) VALUES ($1, $2, $3, $4)',
      [token.sessionId, token.hash, token.expiresAt, token.parentId ?? null],
    );
  },

  /** Locks the token row so that two concurrent refreshes with one token cannot both succeed. */
  async lockRefreshToken(db: Executor, hash: string) {
    const [row] = await db.query<RefreshTokenRow>(
      `SELECT t.id, t.session_id, t.used_at, t.expires_at, s.revoked_at, u.id AS user_id, u.email, u.created_at
       FROM refresh_tokens t JOIN auth_sessions s ON s.id = t.session_id JOIN users u ON u.id = s.user_id
       WHERE t.token_hash = $1 FOR UPDATE OF t, s`,
      [hash],
    );
    return row;
  },

  async markRefreshTokenUsed(db: Executor, id: number, at: Date) {
    await db.query('UPDATE refresh_tokens SET used_at = $2 WHERE id = $1', [id, at]);
  },

  async revokeSession(db: Executor, sessionId: string, at: Date) {
    await db.query('UPDATE auth_sessions SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1', [sessionId, at]);
  },

  /** The user's organizations with the user's role: the personal account first, then the others oldest first. */
  async organizationsOf(db: Executor, userId: string) {
    return db.query<{ id: string; name: string; is_personal_account: boolean; role: string }>(
      `SELECT a.id, a.name, a.is_personal_account, m.role
       FROM memberships m JOIN accounts a ON a.id = m.account_id
       WHERE m.user_id = $1 ORDER BY a.is_personal_account DESC, a.created_at, a.id`,
      [userId],
    );
  },

  /** The organizations of userId that the requester is also a member of, with userId's role. */
  async sharedOrganizations(db: Executor, userId: string, requesterId: string) {
    return db.query<{ id: string; name: string; is_personal_account: boolean; role: string; user_id: string }>(
      `SELECT a.id, a.name, a.is_personal_account, m.role, m.user_id
       FROM memberships m
       JOIN accounts a ON a.id = m.account_id
       JOIN memberships r ON r.account_id = m.account_id AND r.user_id = $2
       WHERE m.user_id = $1 ORDER BY a.created_at, a.id`,
      [userId, requesterId],
    );
  },
};
