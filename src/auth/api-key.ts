import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'sns_';
const PREFIX_SHOWN = 12;

/** A new key: 32 random bytes, base64url, behind a readable prefix. */
export function generateApiKey(): { key: string; keyPrefix: string; keyHash: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, keyPrefix: key.slice(0, PREFIX_SHOWN), keyHash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time equality of two hex digests of the same length. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What a guard attaches to the request for a valid key. */
export interface AuthenticatedKey {
  id: string;
  keyPrefix: string;
  parentNames: string[];
}
