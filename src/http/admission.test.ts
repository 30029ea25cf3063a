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

describe('admission of expensive work per key', () => {
  it('runs up to the limit at once per key and refuses more with 429 and Retry-After', async () => {
    const admission = createAdmission(2);
    const [first, second] = [deferred(), deferred()];
    const running = [admission.admit('org-a', () => first.promise), admission.admit('org-a', () => second.promise)];
    let ran = false;
    const refused = await rejection(
      admission.admit('org-a', async () => {
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
    const admission = createAdmission(1);
    const held = deferred();
    const running = admission.admit('org-a', () => held.promise);
    expect(await admission.admit('org-b', async () => 'other')).toBe('other');
    await rejection(admission.admit('org-a', async () => 'refused'));
    held.resolve('held');
    expect(await running).toBe('held');
  });

  it('frees the slot when the work ends, resolved or failed', async () => {
    const admission = createAdmission(1);
    const failing = deferred();
    const running = admission.admit('org-a', () => failing.promise);
    failing.reject(new Error('query failed'));
    await expect(running).rejects.toThrow('query failed');
    expect(await admission.admit('org-a', async () => 'after failure')).toBe('after failure');
    expect(await admission.admit('org-a', async () => 'after success')).toBe('after success');
    await expect(
      admission.admit('org-a', () => {
        throw new Error('thrown at once');
      }),
    ).rejects.toThrow('thrown at once');
    expect(await admission.admit('org-a', async () => 'after a synchronous throw')).toBe('after a synchronous throw');
  });
});
