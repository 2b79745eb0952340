import { createHash } from 'node:crypto';
import { digestsEqual, generateApiKey, hashApiKey } from './api-key';

describe('api keys', () => {
  it('makes keys of 32 random bytes behind a readable prefix, with their SHA-256 digest', () => {
    const { key, keyPrefix, keyHash } = generateApiKey();
    expect(key).toMatch(/^sns_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    expect(keyPrefix).toBe(key.slice(0, 12));
    expect(keyHash).toBe(createHash('sha256').update(key).digest('hex'));
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key));
    expect(keys.size).toBe(1000);
  });

  it('compares digests exactly', () => {
    const a = hashApiKey('sns_a');
    expect(digestsEqual(a, hashApiKey('sns_a'))).toBe(true);
    expect(digestsEqual(a, hashApiKey('sns_b'))).toBe(false);
    expect(digestsEqual(a, a.slice(0, 10))).toBe(false);
  });
});
