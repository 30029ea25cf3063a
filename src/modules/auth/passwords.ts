import { Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP's Argon2id recommendation: 19 MiB, 2 iterations, 1 lane.
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

// Verified against when the e-mail is unknown, so that login takes as long either way.
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  decoyHash ??= hashPassword('decoy password that never matches');
  const matches = await verify(storedHash ?? (await decoyHash), password).catch(() => false);
  return storedHash !== undefined && matches;
}
