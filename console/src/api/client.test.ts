import { afterEach, describe, expect, it, vi } from 'vitest';
import { authorizedFetch } from './client.ts';

afterEach(() => vi.unstubAllGlobals());

describe('requests of the signed-in user', () => {
  it('sends nothing without a session, and answers as the API would: 401 in its envelope', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const response = await authorizedFetch(new Request('http://console.test/api/v1/meters/3'));
    expect(fetch).not.toHaveBeenCalled();
    expect([response.status, await response.json()]).toEqual([
      401,
      { success: false, message: null, error: 'Not signed in', code: 'UNAUTHENTICATED' },
    ]);
  });
});
