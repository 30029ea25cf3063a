import { Algorithm, hash, verify } from '@node-rs/argon2';

/** Argon2id cost parameters: memory in KiB, iterations, lanes. */
export interface PasswordHashing {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's Argon2id recommendation: 19 MiB, 2 iterations, 1 lane. The service's parameters. */
export const OWASP_PASSWORD_HASHING: Readonly<PasswordHashing> = Object.freeze({
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
});

const hashWith = (password: string, params: PasswordHashing) =>
  hash(password, { algorithm: Algorithm.Argon2id, ...params });

export const hashPassword = (password: string) => hashWith(password, OWASP_PASSWORD_HASHING);

/** Hashing and verifying with one set of parameters (a stored hash carries its own for verifying). */
export function createPasswordHasher(params: PasswordHashing = OWASP_PASSWORD_HASHING) {
  // Verified against when the e-mail is unknown, so that login takes as long either way: it is
  // made with the same parameters as every real hash.
  let decoyHash: Promise<string> | undefined;
  return {
    hash: (password: string) => hashWith(password, params),

    async verify(storedHash: string | undefined, password: string): Promise<boolean> {
      decoyHash ??= hashWith('decoy password that never matches', params);
      const matches = await verify(storedHash ?? (await decoyHash), password).catch(() => false);
      return storedHash !== undefined && matches;
    },
  };
}
