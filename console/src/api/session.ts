import createClient from 'openapi-fetch';
import { apiErrorOf, UnreachableError } from './errors.ts';
import type { Envelope, Session, User } from './models.ts';
import type { paths } from './schema.d.ts';

/**
 * The signed-in user's session. The access token lives in this module's memory only, never in
 * storage a script can read. The refresh token stays in the cookie the service sets at sign-in
 * (HttpOnly: out of reach of scripts; sent only to the refresh endpoint): a reload signs back in
 * through it. It is single use, and every refresh replaces it. A failed refresh signs the user out.
 */

/**
 * Set while signed in, so that a reload asks for a session only when the cookie may be there. It is
 * a flag, no secret: scripts cannot read the cookie to tell.
 */
const SIGNED_IN_KEY = 'ums.signed_in';
/** Refresh this long before the access token expires, so no request is sent with a dying token. */
const EARLY_REFRESH_S = 30;

const publicApi = createClient<paths>({ baseUrl: globalThis.location?.origin ?? '' });

/** What the console keeps of a session: the answer without the refresh token (in the cookie). */
type Kept = Pick<Session, 'access_token' | 'expires_at' | 'user'>;

let current: Kept | null = null;
let refreshing: Promise<Kept> | null = null;
let restoring: Promise<void> | null = null;
const listeners = new Set<() => void>();

function store(session: Kept | null): void {
  current = session && { access_token: session.access_token, expires_at: session.expires_at, user: session.user };
  if (session) localStorage.setItem(SIGNED_IN_KEY, 'true');
  else localStorage.removeItem(SIGNED_IN_KEY);
  for (const listener of listeners) listener();
}

async function answered<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new UnreachableError();
  }
  if (!result.response.ok) throw apiErrorOf(result.response, result.error);
  return (result.data as Envelope<T>).data;
}

/** A new pair of tokens through the refresh cookie, which the browser sends to this endpoint only. */
async function refreshWithCookie(): Promise<Kept> {
  try {
    const session = await answered<Kept>(publicApi.POST('/api/v1/auth/refresh', { body: {} }));
    store(session);
    return current!;
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
    store(await answered<Kept>(publicApi.POST('/api/v1/auth/login', { body: { email, password } })));
  },

  async signUp(email: string, password: string): Promise<void> {
    await answered<{ user: User }>(publicApi.POST('/api/v1/auth/signup', { body: { email, password } }));
    await session.signIn(email, password);
  },

  /** Signs back in with the refresh cookie, after a reload or in another tab of a signed-in user. */
  restore(): Promise<void> {
    restoring ??= (async () => {
      if (!current && localStorage.getItem(SIGNED_IN_KEY)) await refreshWithCookie().catch(() => undefined);
    })();
    return restoring;
  },

  /** A new pair of tokens; concurrent callers share one refresh (a refresh token works once). */
  refresh(): Promise<Kept> {
    if (!current) return Promise.reject(new Error('Not signed in'));
    refreshing ??= refreshWithCookie().finally(() => {
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
