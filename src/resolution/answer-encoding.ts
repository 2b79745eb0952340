/**
 * The gateway's answers ABI-encoded by hand, straight into bytes: the return value of each inner call, of a
 * multicall, and the signed response around them. ccip-codec.equivalence.spec.ts proves them equal to ethers'
 * AbiCoder.
 */
import { hexBytes, utf8Bytes } from '../common/crypto/bytes';
import { WORD } from './abi-reader';

/** Bytes given as 0x-hex (any letter case) or as bytes, as ethers' BytesLike. */
export type Bytes = string | Uint8Array;

const UINT64_LIMIT = 1n << 64n;

function bytesOf(value: Bytes): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const bytes = hexBytes(value);
  if (!bytes) throw new TypeError(`not hex bytes: ${String(value)}`);
  return bytes;
}

/** A length rounded up to whole words. */
function padded(length: number): number {
  return Math.ceil(length / WORD) * WORD;
}

/** Writes a safe integer as a big-endian word at `pos` (over zeros). */
function putWord(out: Uint8Array, pos: number, n: number): void {
  for (let i = pos + WORD - 1; n > 0; i--, n = Math.floor(n / 256)) out[i] = n % 256;
}

/** Writes `value` as the tail of a dynamic `bytes` (length word, content, zero padding) at `pos`; returns its end. */
function putBytes(out: Uint8Array, pos: number, value: Uint8Array): number {
  putWord(out, pos, value.length);
  out.set(value, pos + WORD);
  return pos + WORD + padded(value.length);
}

/** abi.encode(bytes value): the answer of a function returning bytes. */
export function encodeBytesResult(value: Uint8Array): Uint8Array {
  const out = new Uint8Array(WORD + WORD + padded(value.length));
  putWord(out, 0, WORD);
  putBytes(out, WORD, value);
  return out;
}

/** abi.encode(address value) of a 20-byte address, or of the zero address when null. */
export function encodeAddressResult(address: Uint8Array | null): Uint8Array {
  const out = new Uint8Array(WORD);
  if (address) out.set(address, WORD - 20);
  return out;
}

/** abi.encode(string value). */
export function encodeStringResult(value: string): Uint8Array {
  return encodeBytesResult(utf8Bytes(value));
}

/** abi.encode(bytes[]) of no element: its offset word and its count word. */
export const EMPTY_BYTES_ARRAY_SIZE = 2 * WORD;

/** The bytes one element of `length` bytes adds to abi.encode(bytes[]): its offset, length word and padded tail. */
export function bytesArrayElementSize(length: number): number {
  return 2 * WORD + padded(length);
}

/** abi.encode(bytes[] results): the return value of multicall(bytes[]). */
export function encodeBytesArrayResult(results: Uint8Array[]): Uint8Array {
  let size = EMPTY_BYTES_ARRAY_SIZE;
  for (const r of results) size += bytesArrayElementSize(r.length);
  const out = new Uint8Array(size);
  putWord(out, 0, WORD);
  putWord(out, WORD, results.length);
  const base = 2 * WORD;
  let tail = results.length * WORD;
  results.forEach((r, i) => {
    putWord(out, base + i * WORD, tail);
    tail = putBytes(out, base + tail, r) - base;
  });
  return out;
}

/** The gateway's response `data`: abi.encode(bytes result, uint64 expires, bytes signature). */
export function encodeGatewayResponse(result: Bytes, expires: bigint, signature: Bytes): string {
  if (typeof expires !== 'bigint' || expires < 0n || expires >= UINT64_LIMIT) {
    throw new RangeError(`expires ${String(expires)} is not a uint64`);
  }
  const r = bytesOf(result);
  const s = bytesOf(signature);
  const out = Buffer.alloc(3 * WORD + WORD + padded(r.length) + WORD + padded(s.length));
  putWord(out, 0, 3 * WORD);
  out.writeBigUInt64BE(expires, 2 * WORD - 8);
  const end = putBytes(out, 3 * WORD, r);
  putWord(out, 2 * WORD, end);
  putBytes(out, end, s);
  return `0x${out.toString('hex')}`;
}
