/**
 * The bytes of the CCIP-Read gateway: the outer resolve(bytes,bytes) call a resolver hands to the gateway, the
 * DNS-encoded name in it, the inner resolver calls, and the answers. Decoded and encoded by hand, straight from
 * and into bytes: decoding accepts exactly the calldata ethers' Interface.decodeFunctionData accepts (offsets
 * anywhere, padding and trailing bytes unread, at most 1024 times the data read) and gives the same values;
 * ccip-codec.equivalence.spec.ts proves both against ethers. Pure functions (with bounded memos of pure results);
 * a CalldataError names the part of the request that is wrong.
 */
import { BoundedMemo } from '../common/bounded-memo';
import { hexBytes, utf8Bytes } from '../common/crypto/bytes';
import { MAX_ENTRIES } from '../cache/record-cache';
import { nameHashBytes, NameError, normalizeName } from '../common/ens/names';

export const RESOLVE_SELECTOR = '0x9061b923';

const SELECTOR = {
  resolve: 0x9061b923,
  addr: 0x3b3b57de,
  addrCoin: 0xf1cb7e06,
  text: 0x59d1d43c,
  contenthash: 0xbc1c58d1,
  multicall: 0xac9650d8,
  name: 0x691f3431,
} as const;
const ANSWERED_LIST =
  'addr(bytes32), addr(bytes32,uint256), text(bytes32,string), contenthash(bytes32), name(bytes32), multicall(bytes[])';

/** A part of the calldata that is wrong; `field` is its path (`data.name`, `data.calls[1].node`). */
export class CalldataError extends Error {
  constructor(
    readonly field: string,
    message: string,
    /** True when the call decodes but names a function the gateway does not answer. */
    readonly unsupported = false,
  ) {
    super(message);
  }
}

/** One record a resolver call asks for. */
export type RecordQuery =
  | { kind: 'addr' }
  | { kind: 'addrCoin'; coinType: bigint }
  | { kind: 'text'; key: string }
  | { kind: 'contenthash' }
  | { kind: 'name' };

/** A decoded gateway request: the normalised name and what is asked of it. */
export interface ResolveRequest {
  name: string;
  node: string;
  /** One query per inner call; several only for a multicall. */
  queries: RecordQuery[];
  multicall: boolean;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Strings of ABI data keep a leading BOM, as ethers' toUtf8String does. */
const utf8KeepBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
}

/**
 * The name of a DNS wire-format encoding (RFC 1035 section 3.1, as ENSIP-10 uses it): length-prefixed labels up
 * to a zero-length one, nothing after it. Returns the labels joined by dots, as given (not normalised).
 */
export function decodeDnsName(bytes: Uint8Array, field = 'data.name'): string {
  const labels: string[] = [];
  let offset = 0;
  for (;;) {
    if (offset >= bytes.length)
      throw new CalldataError(field, 'is truncated: it ends before its zero-length root label');
    const length = bytes[offset];
    if (length === 0) {
      if (offset + 1 !== bytes.length) {
        throw new CalldataError(
          field,
          `has ${bytes.length - offset - 1} bytes after its zero-length root label (an empty label ends the name)`,
        );
      }
      break;
    }
    const end = offset + 1 + length;
    if (end > bytes.length) {
      throw new CalldataError(field, `is truncated: label ${labels.length + 1} claims ${length} bytes past the end`);
    }
    let label: string;
    try {
      label = utf8.decode(bytes.subarray(offset + 1, end));
    } catch {
      throw new CalldataError(field, `label ${labels.length + 1} is not valid UTF-8`);
    }
    if (label.includes('.')) throw new CalldataError(field, `label ${labels.length + 1} contains a dot`);
    labels.push(label);
    offset = end;
  }
  if (labels.length === 0) throw new CalldataError(field, 'is the root name, which has no records here');
  return labels.join('.');
}

/** ENSIP-15 normalisation, the way every other path of the service does it. */
function normalize(raw: string, field: string): string {
  try {
    return normalizeName(raw, 1);
  } catch (e) {
    if (e instanceof NameError) throw new CalldataError(field, e.message);
    throw e;
  }
}

/** ENSIP-1 namehash of a normalised name as bytes (common/ens: parents' nodes remembered, native keccak). */
export function namehashBytes(normalizedName: string): Uint8Array {
  return nameHashBytes(normalizedName);
}

interface DecodedName {
  name: string;
  node: string;
  nodeBytes: Uint8Array;
}

/**
 * Names recently decoded, by their DNS encoding: a resolver asks for the same names again and again. As many as
 * the subname cache holds (MAX_ENTRIES): a smaller memo forgot every name a cached answer was read for whenever
 * more than its size were in use, and hashed each again (about a fifth of a resolution's own work).
 */
const names = new BoundedMemo<DecodedName>(MAX_ENTRIES, 256);

/** The DNS-encoded name decoded, ENSIP-15 normalised and hashed; refusals are not remembered. */
function decodeName(dns: Uint8Array): DecodedName {
  const key = Buffer.from(dns.buffer, dns.byteOffset, dns.length).toString('latin1');
  return names.get(key, () => {
    const name = normalize(decodeDnsName(dns), 'data.name');
    const nodeBytes = namehashBytes(name);
    return { name, node: `0x${hexOf(nodeBytes)}`, nodeBytes };
  });
}

/** Thrown inside the reader; the caller turns it into a CalldataError naming the call. */
const UNDECODABLE = Symbol('undecodable');
const WORD = 32;
/** ethers refuses ABI data whose decoding reads more than this many times its length (its issue #4537). */
const MAX_INFLATION = 1024;

/**
 * The arguments of one call (its calldata after the selector), read the way ethers' ABI Reader reads them: every
 * word and every padded byte string must lie inside the data, an offset or length must be a safe integer, all that
 * is read must stay within `maxInflation` times the data (ethers' default, 1024), and offsets are not otherwise
 * checked.
 */
export class ArgsReader {
  private bytesRead = 0;
  readonly length: number;

  constructor(
    readonly data: Uint8Array,
    private readonly maxInflation = MAX_INFLATION,
  ) {
    this.length = data.length;
  }

  private count(n: number): void {
    this.bytesRead += n;
    if (this.bytesRead > this.maxInflation * this.length) throw UNDECODABLE;
  }

  /** The 32-byte word at `pos`, checked to lie inside the data; returns `pos`. */
  word(pos: number): number {
    if (pos + WORD > this.length) throw UNDECODABLE;
    this.count(WORD);
    return pos;
  }

  /** The word at `pos` as an offset or length: ethers refuses one above Number.MAX_SAFE_INTEGER. */
  index(pos: number): number {
    const d = this.data;
    this.word(pos);
    for (let i = pos; i < pos + 25; i++) if (d[i] !== 0) throw UNDECODABLE;
    if (d[pos + 25] > 0x1f) throw UNDECODABLE;
    let n = 0;
    for (let i = pos + 25; i < pos + WORD; i++) n = n * 256 + d[i];
    return n;
  }

  /** The dynamic `bytes` whose length word is at `pos`: its content, which must fit with its padding. */
  bytes(pos: number): Uint8Array {
    const length = this.index(pos);
    const padded = Math.ceil(length / WORD) * WORD;
    if (pos + WORD + padded > this.length) throw UNDECODABLE;
    this.count(length);
    return this.data.subarray(pos + WORD, pos + WORD + length);
  }

  /** The `bytes` argument whose offset (from `base`) is in the head word at `head`. */
  bytesAt(head: number, base = 0): Uint8Array {
    return this.bytes(base + this.index(head));
  }

  /** The `bytes[]` argument whose offset is in the head word at `head`. */
  bytesArrayAt(head: number): Uint8Array[] {
    const pos = this.index(head);
    const n = this.index(pos);
    // ethers' rough bound against a stray length: each element takes a word from the array on.
    if (n * WORD > this.length - pos) throw UNDECODABLE;
    const elements: Uint8Array[] = [];
    for (let i = 0; i < n; i++) elements.push(this.bytesAt(pos + WORD + i * WORD, pos + WORD));
    return elements;
  }

  /** The `string` argument whose offset is in the head word at `head`: strict UTF-8 as ethers' toUtf8String. */
  stringAt(head: number): string {
    const bytes = this.bytesAt(head);
    try {
      return utf8KeepBom.decode(bytes);
    } catch {
      throw UNDECODABLE;
    }
  }
}

/** Decodes the arguments of `call` (selector included) with `read`; any failure refuses the call. */
function decodeArgs<T>(call: Uint8Array, signature: string, field: string, read: (args: ArgsReader) => T): T {
  try {
    return read(new ArgsReader(call.subarray(4)));
  } catch (e) {
    if (e !== UNDECODABLE) throw e;
    throw new CalldataError(field, `does not decode as ${signature}`);
  }
}

function selectorOf(call: Uint8Array): number {
  return ((call[0] << 24) | (call[1] << 16) | (call[2] << 8) | call[3]) >>> 0;
}

function checkNode(call: Uint8Array, request: DecodedName, field: string): void {
  const node = call.subarray(4, 4 + WORD);
  for (let i = 0; i < WORD; i++) {
    if (node[i] !== request.nodeBytes[i]) {
      throw new CalldataError(field, `is 0x${hexOf(node)}, not the namehash of ${request.name} (${request.node})`);
    }
  }
}

/** One inner call: the record it asks for after checking its node, or a multicall's calls where allowed. */
function decodeQuery(
  call: Uint8Array,
  request: DecodedName,
  fields: { call: string; node: string },
  allowMulticall: boolean,
): RecordQuery | Uint8Array[] {
  if (call.length < 4) throw new CalldataError(fields.call, 'is shorter than a function selector');
  const selector = selectorOf(call);
  if (selector === SELECTOR.multicall && allowMulticall) {
    return decodeArgs(call, 'multicall(bytes[])', fields.call, (args) => args.bytesArrayAt(0));
  }
  let query: RecordQuery;
  if (selector === SELECTOR.addr) {
    decodeArgs(call, 'addr(bytes32)', fields.call, (args) => args.word(0));
    query = { kind: 'addr' };
  } else if (selector === SELECTOR.addrCoin) {
    const coin = decodeArgs(call, 'addr(bytes32,uint256)', fields.call, (args) => (args.word(0), args.word(WORD)));
    query = { kind: 'addrCoin', coinType: BigInt(`0x${hexOf(call.subarray(4 + coin, 4 + coin + WORD))}`) };
  } else if (selector === SELECTOR.text) {
    query = {
      kind: 'text',
      key: decodeArgs(call, 'text(bytes32,string)', fields.call, (args) => (args.word(0), args.stringAt(WORD))),
    };
  } else if (selector === SELECTOR.contenthash) {
    decodeArgs(call, 'contenthash(bytes32)', fields.call, (args) => args.word(0));
    query = { kind: 'contenthash' };
  } else if (selector === SELECTOR.name) {
    decodeArgs(call, 'name(bytes32)', fields.call, (args) => args.word(0));
    query = { kind: 'name' };
  } else {
    throw new CalldataError(
      fields.call,
      `calls 0x${hexOf(call.subarray(0, 4))}; the gateway answers ${ANSWERED_LIST} (not nested)`,
      true,
    );
  }
  checkNode(call, request, fields.node);
  return query;
}

/** The bytes of 0x-prefixed hex calldata; anything else is refused as `data`. */
export function calldataBytes(data: string): Buffer {
  const bytes = hexBytes(data);
  if (!bytes) throw new CalldataError('data', 'must be 0x-prefixed hex bytes');
  return bytes;
}

/**
 * Decodes the calldata of resolve(bytes name, bytes data) (selector 0x9061b923): the DNS-encoded name, ENSIP-15
 * normalised, and the inner call(s), each of whose node must be the namehash of that name.
 */
export function decodeResolveBytes(data: Uint8Array): ResolveRequest {
  if (data.length < 4 || selectorOf(data) !== SELECTOR.resolve) {
    throw new CalldataError('data', `is not a resolve(bytes,bytes) call (selector ${RESOLVE_SELECTOR})`);
  }
  const [dns, call] = decodeArgs(data, 'resolve(bytes,bytes)', 'data', (args) => [args.bytesAt(0), args.bytesAt(WORD)]);
  const request = decodeName(dns);
  const { name, node } = request;
  const top = decodeQuery(call, request, { call: 'data.call', node: 'data.node' }, true);
  if (!Array.isArray(top)) return { name, node, queries: [top], multicall: false };
  const queries = top.map(
    (element, i) =>
      decodeQuery(element, request, { call: `data.calls[${i}]`, node: `data.calls[${i}].node` }, false) as RecordQuery,
  );
  return { name, node, queries, multicall: true };
}

/** decodeResolveBytes of 0x-hex calldata. */
export function decodeResolveCall(data: string): ResolveRequest {
  return decodeResolveBytes(calldataBytes(data));
}

/** The value a query's function returns: an address, bytes or a string. */
export type QueryValue = string;

/** Bytes given as 0x-hex (any letter case) or as bytes, as ethers' BytesLike. */
export type Bytes = string | Uint8Array;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT64_LIMIT = 1n << 64n;

function bytesOf(value: Bytes): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const bytes = hexBytes(value);
  if (!bytes) throw new TypeError(`not hex bytes: ${String(value)}`);
  return bytes;
}

/** 0x-hex of bytes, lower case. */
export function toHex(bytes: Uint8Array): string {
  return `0x${hexOf(bytes)}`;
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

/** abi.encode(bytes[] results): the return value of multicall(bytes[]). */
export function encodeBytesArrayResult(results: Uint8Array[]): Uint8Array {
  let size = WORD + WORD + results.length * WORD;
  for (const r of results) size += WORD + padded(r.length);
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

/** The ABI-encoded return value of the inner function, as a resolver would return it on chain. */
export function encodeResult(query: RecordQuery, value: QueryValue): string {
  switch (query.kind) {
    case 'addr':
      if (!ADDRESS.test(value)) throw new TypeError(`not an address: ${value}`);
      return toHex(encodeAddressResult(bytesOf(value)));
    case 'text':
      return toHex(encodeStringResult(value));
    default:
      return toHex(encodeBytesResult(bytesOf(value)));
  }
}

/** The return value of multicall(bytes[]): one encoded result per inner call. */
export function encodeMulticallResult(results: Bytes[]): string {
  return toHex(encodeBytesArrayResult(results.map(bytesOf)));
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
