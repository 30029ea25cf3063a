import { createHash, randomBytes } from 'node:crypto';

/** What every gateway key starts with: a key found in a log or a file tells what it opens. */
export const GATEWAY_KEY_PREFIX = 'ugw_';
/** 192 random bits, written as 32 base64url characters after the prefix. */
const KEY_BYTES = 24;

/** A new gateway key: shown once, in the answer that made it. */
export const newGatewayKey = () => `${GATEWAY_KEY_PREFIX}${randomBytes(KEY_BYTES).toString('base64url')}`;

/**
 * What is stored of a key: its SHA-256. The key is random and long, so a fast hash without salt
 * is as safe as a slow one and lets a push find its gateway with one indexed lookup.
 */
export const hashGatewayKey = (key: string) => createHash('sha256').update(key).digest();
