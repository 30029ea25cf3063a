import { describe, expect, it } from 'vitest';
import { createAdmission } from './admission.ts';
import { AppError } from './errors.ts';

function deferred<T = string>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const caller = { userId: 'user-a' };
const otherCaller = { userId: 'user-b' };

describe('admission of expensive work per organization', () => {
  it('runs up to the limit at once per key and refuses more with 429 and Retry-After once no slot frees in time', async () => {
    const admission = createAdmission({ perOrganization: 2, perUser: 100, waitMs: 20 });
    const [first, second] = [deferred(), deferred()];
    const running = [
      admission.admit(caller, 'org-a', () => first.promise),
      admission.admit(caller, 'org-a', () => second.promise),
    ];
    let ran = false;
    const refused = await rejection(
      admission.admit(caller, 'org-a', async () => {
        ran = true;
        return 'third';
      }),
    );
    expect(ran).toBe(false);
    expect(refused.statusCode).toBe(429);
    expect(refused.envelopeMessage).toBe('Too many requests');
    expect(refused.detail).toBe('Too many expensive requests of this organization at once; retry shortly');
    expect(refused.headers).toEqual({ 'retry-after': '1' });

    first.resolve('first');
    second.resolve('second');
    expect(await Promise.all(running)).toEqual(['first', 'second']);
  });

  it('admits another key while one is full', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 20 });
    const held = deferred();
    const running = admission.admit(caller, 'org-a', () => held.promise);
    expect(await admission.admit(caller, 'org-b', async () => 'other')).toBe('other');
    await rejection(admission.admit(caller, 'org-a', async () => 'refused'));
    held.resolve('held');
    expect(await running).toBe('held');
  });

  it('frees the slot when the work ends, resolved or failed', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 20 });
    const failing = deferred();
    const running = admission.admit(caller, 'org-a', () => failing.promise);
    failing.reject(new Error('query failed'));
    await expect(running).rejects.toThrow('query failed');
    expect(await admission.admit(caller, 'org-a', async () => 'after failure')).toBe('after failure');
    expect(await admission.admit(caller, 'org-a', async () => 'after success')).toBe('after success');
    await expect(
      admission.admit(caller, 'org-a', () => {
        throw new Error('thrown at once');
      }),
    ).rejects.toThrow('thrown at once');
    expect(await admission.admit(caller, 'org-a', async () => 'after a synchronous throw')).toBe(
      'after a synchronous throw',
    );
  });

  it('lets a request past the limit wait for a slot, handed over in order of arrival', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 5_000 });
    const held = deferred();
    const order: string[] = [];
    const first = admission.admit(caller, 'org-a', async () => {
      await held.promise;
      order.push('first');
      return 'first';
    });
    const second = admission.admit(caller, 'org-a', async () => {
      order.push('second');
      return 'second';
    });
    const third = admission.admit(caller, 'org-a', async () => {
      order.push('third');
      return 'third';
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    held.resolve('first');
    expect(await Promise.all([first, second, third])).toEqual(['first', 'second', 'third']);
    expect(order).toEqual(['first', 'second', 'third']);
    expect(await admission.admit(caller, 'org-a', async () => 'free again')).toBe('free again');
  });

  it('refuses a request that waited in vain without taking a slot from those after it', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 20 });
    const held = deferred();
    const running = admission.admit(caller, 'org-a', () => held.promise);
    const refused = await rejection(admission.admit(caller, 'org-a', async () => 'too late'));
    expect(refused.statusCode).toBe(429);
    held.resolve('held');
    expect(await running).toBe('held');
    expect(await admission.admit(caller, 'org-a', async () => 'next')).toBe('next');
    const [a, b] = [deferred(), deferred()];
    const both = [admission.admit(caller, 'org-a', () => a.promise), admission.admit(caller, 'org-a', () => b.promise)];
    a.resolve('a');
    b.resolve('b');
    expect(await Promise.all(both)).toEqual(['a', 'b']);
  });
});

describe('admission of expensive work per user', () => {
  it('refuses a user past their limit in any organization, and admits another user there', async () => {
    const admission = createAdmission({ perOrganization: 4, perUser: 2, waitMs: 20 });
    const [a, b] = [deferred(), deferred()];
    const running = [
      admission.admit(caller, 'org-a', () => a.promise),
      admission.admit(caller, 'org-b', () => b.promise),
    ];
    const refused = await rejection(admission.admit(caller, 'org-c', async () => 'third'));
    expect(refused.statusCode).toBe(429);
    expect(refused.detail).toBe('Too many expensive requests of yours at once; retry shortly');
    expect(refused.headers).toEqual({ 'retry-after': '1' });
    expect(await admission.admit(otherCaller, 'org-c', async () => 'other user')).toBe('other user');

    a.resolve('a');
    b.resolve('b');
    expect(await Promise.all(running)).toEqual(['a', 'b']);
    expect(await admission.admit(caller, 'org-c', async () => 'free again')).toBe('free again');
  });

  it('gives the user slot back when the organization refuses, so the user can work elsewhere', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 1, waitMs: 20 });
    const held = deferred();
    const running = admission.admit(otherCaller, 'org-a', () => held.promise);
    const refused = await rejection(admission.admit(caller, 'org-a', async () => 'refused'));
    expect(refused.detail).toBe('Too many expensive requests of this organization at once; retry shortly');
    expect(await admission.admit(caller, 'org-b', async () => 'elsewhere')).toBe('elsewhere');
    held.resolve('held');
    expect(await running).toBe('held');
  });

  it('hands a user slot over to the user request waiting for it, in order of arrival', async () => {
    const admission = createAdmission({ perOrganization: 4, perUser: 1, waitMs: 5_000 });
    const held = deferred();
    const first = admission.admit(caller, 'org-a', () => held.promise);
    const second = admission.admit(caller, 'org-b', async () => 'second');
    held.resolve('first');
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
  });
});
