import createClient from 'openapi-fetch';
import { apiErrorOf, UnreachableError } from './errors.ts';
import type { Envelope, Session, User } from './models.ts';
import type { paths } from './schema.d.ts';

/**
 * The signed-in user's session. The access token lives in this module's memory only; the refresh
 * token is kept in sessionStorage, so that reloading the tab keeps the user signed in, and is
 * single use: every refresh replaces it. A failed refresh signs the user out.
 */

const REFRESH_KEY = 'ums.refresh_token';
/** Refresh this long before the access token expires, so no request is sent with a dying token. */
const EARLY_REFRESH_S = 30;

const publicApi = createClient<paths>({ baseUrl: globalThis.location?.origin ?? '' });

let current: Session | null = null;
let refreshing: Promise<Session> | null = null;
let restoring: Promise<void> | null = null;
const listeners = new Set<() => void>();

function store(session: Session | null): void {
  current = session;
  if (session) sessionStorage.setItem(REFRESH_KEY, session.refresh_token);
  else sessionStorage.removeItem(REFRESH_KEY);
  for (const listener of listeners) listener();
}

async function answered<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new UnreachableError();
  }
  if (!result.response.ok) throw apiErrorOf(result.response.status, result.error);
  return (result.data as Envelope<T>).data;
}

async function refreshWith(refreshToken: string): Promise<Session> {
  try {
    const session = await answered<Session>(
      publicApi.POST('/api/v1/auth/refresh', { body: { refresh_token: refreshToken } }),
    );
    store(session);
    return session;
  } catch (error) {
    // An unreachable service keeps the session for a later try; a refused token ends it.
    if (!(error instanceof UnreachableError)) store(null);
    throw error;
  }
}

export const session = {
  user(): User | null {
    return current?.user ?? null;
  },

  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  async signIn(email: string, password: string): Promise<void> {
    store(await answered<Session>(publicApi.POST('/api/v1/auth/login', { body: { email, password } })));
  },

  async signUp(email: string, password: string): Promise<void> {
    await answered<{ user: User }>(publicApi.POST('/api/v1/auth/signup', { body: { email, password } }));
    await session.signIn(email, password);
  },

  /** Signs back in with the refresh token kept in this tab, if any. */
  restore(): Promise<void> {
    restoring ??= (async () => {
      const refreshToken = sessionStorage.getItem(REFRESH_KEY);
      if (refreshToken && !current) await refreshWith(refreshToken).catch(() => undefined);
    })();
    return restoring;
  },

  /** A new pair of tokens; concurrent callers share one refresh (a refresh token works once). */
  refresh(): Promise<Session> {
    if (!current) return Promise.reject(new Error('Not signed in'));
    refreshing ??= refreshWith(current.refresh_token).finally(() => {
      refreshing = null;
    });
    return refreshing;
  },

  /** The access token to send, refreshed first when it is about to expire; null when signed out. */
  async accessToken(): Promise<string | null> {
    if (refreshing) await refreshing.catch(() => undefined);
    if (!current) return null;
    if (current.expires_at - Date.now() / 1000 < EARLY_REFRESH_S) await session.refresh();
    return current?.access_token ?? null;
  },

  async signOut(): Promise<void> {
    const token = current?.access_token;
    store(null);
    if (token) {
      await fetch('/api/v1/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${token}` } }).catch(
        () => undefined,
      );
    }
  },

  /** Ends the session after a refresh failed elsewhere (the user is signed out). */
  expire(): void {
    store(null);
  },
};
