import { keccak256Bytes } from '../common/keccak';

/**
 * What hashing one flat EIP-712 struct under one domain needs once its type and domain are known: the
 * `0x1901 ‖ domainSeparator` prefix, the type hash, and each field's name and atomic type. eip712.ts derives it
 * (with ethers); this file hashes with it and needs nothing else, so that the signing thread can.
 */
export interface StructSpec {
  prefix: Uint8Array;
  typeHash: Uint8Array;
  fields: { name: string; type: string }[];
}

type Encoder = (value: unknown, out: Uint8Array, at: number) => void;

const EVEN_HEX = /^0x(?:[0-9a-fA-F]{2})*$/;
const SURROGATE = /[\uD800-\uDFFF]/;

/** The bytes of 0x-prefixed hex of even length, or of a Uint8Array as it is (ethers' getBytes). */
function bytesOf(value: unknown, what: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string' && EVEN_HEX.test(value)) return Buffer.from(value.slice(2), 'hex');
  throw new Error(`not ${what}: ${String(value)}`);
}

/**
 * UTF-8 of a string as ethers' toUtf8Bytes encodes it: a high surrogate without its low half is refused, and a low
 * surrogate alone is encoded as the three bytes of its code unit.
 */
export function utf8(text: string): Uint8Array {
  if (!SURROGATE.test(text)) return Buffer.from(text, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) throw new Error('invalid surrogate pair');
      i++;
      c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Uint8Array.from(out);
}

function hexInto(hex: unknown, out: Uint8Array, at: number, bytes: number, left: boolean): void {
  // Exactly `bytes` bytes of hex, as ethers requires of an address and of a bytesN.
  if (typeof hex !== 'string' || hex.length !== 2 + bytes * 2 || !EVEN_HEX.test(hex)) {
    throw new Error(`not ${bytes} bytes of hex: ${String(hex)}`);
  }
  const raw = Buffer.from(hex.slice(2), 'hex');
  out.set(raw, left ? at + 32 - raw.length : at);
}

function uintInto(value: unknown, out: Uint8Array, at: number, bits: number): void {
  // ethers refuses the empty string that BigInt would read as 0, and numbers past 2^53 that lost their digits.
  if (value === '') throw new Error(`an empty string is not a uint${bits}`);
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error(`${value} is not a safe integer`);
  let n = BigInt(value as bigint | number | string);
  if (n < 0n || n >> BigInt(bits) !== 0n) throw new Error(`${String(value)} is not a uint${bits}`);
  for (let i = 31; i >= 0 && n > 0n; i--) {
    out[at + i] = Number(n & 0xffn);
    n >>= 8n;
  }
}

export function encoderOf(type: string): Encoder {
  if (type === 'string') return (v, out, at) => out.set(keccak256Bytes(utf8(v as string)), at);
  if (type === 'bytes') return (v, out, at) => out.set(keccak256Bytes(bytesOf(v, 'bytes')), at);
  if (type === 'address') return (v, out, at) => hexInto(v, out, at, 20, true);
  if (type === 'bool') return (v, out, at) => void (out[at + 31] = v ? 1 : 0);
  const fixed = /^bytes([0-9]+)$/.exec(type);
  if (fixed) return (v, out, at) => hexInto(v, out, at, Number(fixed[1]), false);
  const uint = /^uint([0-9]+)$/.exec(type);
  if (uint) return (v, out, at) => uintInto(v, out, at, Number(uint[1]));
  throw new Error(`the fast EIP-712 hasher takes flat structs of atomic types, not ${type}`);
}

/** The EIP-712 digest of values of one struct type under one domain: keccak256(prefix ‖ hashStruct(value)). */
export class StructDigester {
  private readonly fields: { name: string; encode: Encoder }[];

  constructor(readonly spec: StructSpec) {
    this.fields = spec.fields.map((f) => ({ name: f.name, encode: encoderOf(f.type) }));
  }

  /** hashStruct(value): keccak256 of the type hash and each field's 32-byte encoding. */
  structHash(value: object): Uint8Array {
    const fields = value as Record<string, unknown>;
    const buf = new Uint8Array(32 * (1 + this.fields.length));
    buf.set(this.spec.typeHash, 0);
    this.fields.forEach((f, i) => f.encode(fields[f.name], buf, 32 * (i + 1)));
    return keccak256Bytes(buf);
  }

  /** The digest a wallet signs and a contract recovers from. */
  digest(value: object): Uint8Array {
    const buf = new Uint8Array(2 + 32 + 32);
    buf.set(this.spec.prefix, 0);
    buf.set(this.structHash(value), 34);
    return keccak256Bytes(buf);
  }
}
