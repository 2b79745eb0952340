/**
 * What an offchain resolver asks the gateway: the outer resolve(bytes,bytes) call, its DNS-encoded name and the
 * inner resolver call(s), decoded by hand from bytes into a ResolveRequest. A CalldataError names the part of the
 * request that is wrong.
 */
import { hexBytes } from '../common/crypto/bytes';
import { ArgsReader, ArrayTooLongError, UNDECODABLE, WORD } from './abi-reader';
import { type DecodedName, decodeName } from './dns-name';
import { CalldataError } from './resolution.errors';

/** More calls than any client batches (every record a name can hold is 102), few enough to answer cheaply. */
export const MAX_MULTICALL_CALLS = 128;

const SELECTOR = {
  resolve: 0x9061b923,
  addr: 0x3b3b57de,
  addrCoin: 0xf1cb7e06,
  text: 0x59d1d43c,
  contenthash: 0xbc1c58d1,
  multicall: 0xac9650d8,
} as const;
const ANSWERED_LIST =
  'addr(bytes32), addr(bytes32,uint256), text(bytes32,string), contenthash(bytes32), multicall(bytes[])';

/** One record a resolver call asks for. */
export type RecordQuery =
  { kind: 'addr' } | { kind: 'addrCoin'; coinType: bigint } | { kind: 'text'; key: string } | { kind: 'contenthash' };

/** A decoded gateway request: the normalised name and what is asked of it. */
export interface ResolveRequest {
  name: string;
  node: string;
  /** One query per inner call; several only for a multicall. */
  queries: RecordQuery[];
  multicall: boolean;
}

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
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

/** The calls of a multicall, counted before any is read. */
function decodeMulticall(call: Uint8Array, field: string): Uint8Array[] {
  try {
    return decodeArgs(call, 'multicall(bytes[])', field, (args) => args.bytesArrayAt(0, MAX_MULTICALL_CALLS));
  } catch (e) {
    if (!(e instanceof ArrayTooLongError)) throw e;
    throw new CalldataError(field, `is a multicall of ${e.elements} calls; the gateway answers at most ${e.max}`);
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
  if (selector === SELECTOR.multicall && allowMulticall) return decodeMulticall(call, fields.call);
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
    throw new CalldataError('data', 'is not a resolve(bytes,bytes) call (selector 0x9061b923)');
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
