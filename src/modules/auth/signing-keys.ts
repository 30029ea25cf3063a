import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, type JWK } from 'jose';

export interface SigningKeys {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly kid: string;
}

function signingKeysFromPem(pem: string): SigningKeys {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error('Invalid configuration: JWT_PRIVATE_KEY must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  const kid = publicKey.export({ format: 'der', type: 'spki' }).subarray(-8).toString('hex');
  return { privateKey, publicKey, kid };
}

export function generateSigningKeys(): SigningKeys {
  const { privateKey } = generateKeyPairSync('ed25519');
  return signingKeysFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
}

/** JWT_PRIVATE_KEY when given; otherwise a key pair generated once and kept in the data directory. */
export function loadSigningKeys(pem: string | undefined, dataDir: string): SigningKeys {
  if (pem) return signingKeysFromPem(pem);
  const path = join(dataDir, 'jwt-ed25519.pem');
  if (existsSync(path)) return signingKeysFromPem(readFileSync(path, 'utf8'));
  const keys = generateSigningKeys();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path, keys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), { mode: 0o600 });
  return keys;
}

export async function publicJwks(keys: SigningKeys): Promise<{ keys: JWK[] }> {
  const jwk = await exportJWK(keys.publicKey);
  return { keys: [{ ...jwk, kid: keys.kid, alg: 'EdDSA', use: 'sig' }] };
}
