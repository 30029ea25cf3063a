import createClient from 'openapi-fetch';
import { ApiError, apiErrorOf, UnreachableError } from './errors.ts';
import type { Envelope } from './models.ts';
import type { paths } from './schema.d.ts';
import { session } from './session.ts';

/** How often a request refused for overload (429, 503 with Retry-After) is tried again, and the longest wait. */
const OVERLOAD_RETRIES = 3;
const LONGEST_WAIT_S = 5;

const wait = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

function retryAfter(response: Response): number | null {
  if (response.status !== 429 && response.status !== 503) return null;
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds <= LONGEST_WAIT_S ? Math.max(seconds, 0.2) : null;
}

/** What a request of a page that outlived its session gets, without being sent: the API's 401. */
function notSignedIn(): Response {
  const body = { success: false, message: null, error: 'Not signed in', code: 'UNAUTHENTICATED' };
  return new Response(JSON.stringify(body), { status: 401, headers: { 'content-type': 'application/json' } });
}

async function send(request: Request): Promise<Response> {
  const token = await session.accessToken();
  // Signed out (a page still asking as its user signs out): the service would refuse it, and the
  // browser would log the refusal; it is answered here instead.
  if (!token) return notSignedIn();
  const authorized = new Request(request);
  authorized.headers.set('authorization', `Bearer ${token}`);
  try {
    return await fetch(authorized);
  } catch {
    throw new UnreachableError();
  }
}

/**
 * fetch with the session's access token. A 401 refreshes the session once and tries again (a
 * failed refresh signs the user out); an overloaded service is waited for, a few times.
 */
export async function authorizedFetch(request: Request): Promise<Response> {
  let response = await send(request.clone());
  if (response.status === 401 && session.user()) {
    await session.refresh();
    response = await send(request.clone());
    if (response.status === 401) session.expire();
  }
  for (let attempt = 0; attempt < OVERLOAD_RETRIES; attempt++) {
    const seconds = retryAfter(response);
    if (seconds === null) break;
    await wait(seconds);
    response = await send(request.clone());
  }
  return response;
}

/** The API, typed by its OpenAPI document, with the session's token on every request. */
export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? '',
  fetch: authorizedFetch,
});

type Call = Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The envelope of a successful answer; an ApiError otherwise. */
export async function envelope<T>(call: Call): Promise<Envelope<T>> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiErrorOf(response, error);
  return data as Envelope<T>;
}

/** The data of a successful answer. */
export async function read<T>(call: Call): Promise<T> {
  return (await envelope<T>(call)).data;
}

/** The data of a successful answer, or null when the API answers 404 (a record that may not exist). */
export async function readOrNull<T>(call: Call): Promise<T | null> {
  try {
    return await read<T>(call);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** A change that answers nothing (204); an ApiError when refused. */
export async function done(call: Call): Promise<void> {
  const { error, response } = await call;
  if (!response.ok) throw apiErrorOf(response, error);
}

/** Every row of a paginated list (pages of 100). */
export async function readAll<T>(page: (page: number) => Call): Promise<T[]> {
  const rows: T[] = [];
  for (let n = 1; ; n++) {
    const answer = await envelope<T[]>(page(n));
    rows.push(...answer.data);
    if (answer.data.length < 100 || rows.length >= (answer.count ?? 0)) return rows;
  }
}

export { ApiError };
