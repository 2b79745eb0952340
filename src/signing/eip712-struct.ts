import { hexBytes, utf8Bytes } from '../common/crypto/bytes';
import { keccak256Bytes } from '../common/crypto/keccak';

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

/** The bytes of 0x-prefixed hex of even length, or of a Uint8Array as it is (ethers' getBytes). */
function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const bytes = hexBytes(value);
  if (!bytes) throw new Error(`not bytes: ${String(value)}`);
  return bytes;
}

function hexInto(hex: unknown, out: Uint8Array, at: number, bytes: number, left: boolean): void {
  // Exactly `bytes` bytes of hex, as ethers requires of an address and of a bytesN.
  const raw = typeof hex === 'string' && hex.length === 2 + bytes * 2 ? hexBytes(hex) : null;
  if (!raw) throw new Error(`not ${bytes} bytes of hex: ${String(hex)}`);
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

function encoderOf(type: string): Encoder {
  if (type === 'string') return (v, out, at) => out.set(keccak256Bytes(utf8Bytes(v as string)), at);
  if (type === 'bytes') return (v, out, at) => out.set(keccak256Bytes(bytesOf(v)), at);
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
