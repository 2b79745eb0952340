/**
 * Bytes from the text forms the service takes: 0x-prefixed hex, and UTF-8 exactly as ethers encodes it. Shared by
 * the CCIP-Read codec and the signing thread's EIP-712 hashing, which may not load ethers.
 */

/** The bytes of 0x-prefixed hex (whole bytes, any letter case), or null for anything else. */
export function hexBytes(value: unknown): Buffer | null {
  if (typeof value !== 'string' || !value.startsWith('0x') || value.length % 2 !== 0) return null;
  const bytes = Buffer.from(value.slice(2), 'hex');
  // Buffer stops at the first character that is not hex.
  return bytes.length * 2 === value.length - 2 ? bytes : null;
}

const hasSurrogate = /[\ud800-\udfff]/;

/**
 * The UTF-8 bytes of a string as ethers' toUtf8Bytes makes them: a lone high surrogate is refused, a lone low one
 * is written as its three-byte form (where Buffer would write U+FFFD).
 */
export function utf8Bytes(value: string): Uint8Array {
  if (!hasSurrogate.test(value)) return Buffer.from(value, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push((c >> 6) | 0xc0, (c & 0x3f) | 0x80);
    else if ((c & 0xfc00) === 0xd800) {
      i++;
      const c2 = value.charCodeAt(i);
      if (i >= value.length || (c2 & 0xfc00) !== 0xdc00) throw new TypeError('invalid surrogate pair');
      const pair = 0x10000 + ((c & 0x03ff) << 10) + (c2 & 0x03ff);
      out.push((pair >> 18) | 0xf0, ((pair >> 12) & 0x3f) | 0x80, ((pair >> 6) & 0x3f) | 0x80, (pair & 0x3f) | 0x80);
    } else out.push((c >> 12) | 0xe0, ((c >> 6) & 0x3f) | 0x80, (c & 0x3f) | 0x80);
  }
  return new Uint8Array(out);
}
