import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/helpers/envelopes.ts';
import { registerUser } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { startTestApp, TEST_PASSWORD_HASHING, type TestApp } from '../../../test/helpers/test-app.ts';
import { createPasswordHasher, hashPassword, OWASP_PASSWORD_HASHING } from './passwords.ts';

const OWASP_PREFIX = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/;

describe('password hashing parameters', () => {
  it("are OWASP's Argon2id recommendation by default: 19 MiB, 2 iterations, 1 lane", async () => {
    expect(OWASP_PASSWORD_HASHING).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(Object.isFrozen(OWASP_PASSWORD_HASHING)).toBe(true);
    const passwords = createPasswordHasher();
    const stored = await passwords.hash('correct horse battery');
    expect(stored).toMatch(OWASP_PREFIX);
    expect(await passwords.verify(stored, 'correct horse battery')).toBe(true);
    expect(await passwords.verify(stored, 'wrong horse battery')).toBe(false);
    expect(await passwords.verify(undefined, 'correct horse battery')).toBe(false);
    expect(await hashPassword('demo')).toMatch(OWASP_PREFIX);
  });

  it('are the ones given otherwise, and a hash verifies whatever parameters the hasher has', async () => {
    const cheap = createPasswordHasher(TEST_PASSWORD_HASHING);
    const stored = await cheap.hash('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    expect(await cheap.verify(stored, 'correct horse battery')).toBe(true);
    expect(await cheap.verify(stored, 'wrong horse battery')).toBe(false);
    expect(await cheap.verify(undefined, 'correct horse battery')).toBe(false);
    expect(await createPasswordHasher().verify(stored, 'correct horse battery')).toBe(true);
  });
});

describe('the application built without passwordHashing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { passwordHashing: undefined });
  });
  afterAll(async () => t.close());

  it('stores OWASP-parameter hashes, logs in with them and refuses unknown e-mails alike', async () => {
    const user = await registerUser(t.app);
    const [row] = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [
      user.id,
    ]);
    expect(row!.password_hash).toMatch(OWASP_PREFIX);
    const unknown = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'nobody@example.com', password: user.password },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(failure('Unauthorized', 'Invalid login credentials'));
  });
});
