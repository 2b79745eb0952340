/**
 * The bytes of CONTRACT section 9, decoded and encoded with ethers' ABI coder: the outer resolve(bytes,bytes)
 * call a resolver hands to the gateway, the DNS-encoded name in it, the inner resolver calls, and the answers.
 * Pure functions; a CalldataError names the part of the request that is wrong.
 */
import { AbiCoder, type BytesLike, FunctionFragment, getBytes, Interface, isHexString, namehash } from 'ethers';
import { NameError, normalizeName } from '../common/ens';

export const RESOLVE_SELECTOR = '0x9061b923';

/** ENSIP-10's resolve and the resolver functions the gateway answers (ENSIP-1, -9, -5, -7, and multicall). */
export const RESOLVER_ABI = new Interface([
  'function resolve(bytes name, bytes data) view returns (bytes)',
  'function addr(bytes32 node) view returns (address)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function contenthash(bytes32 node) view returns (bytes)',
  'function multicall(bytes[] data) returns (bytes[] results)',
]);

const fn = (signature: string): FunctionFragment => RESOLVER_ABI.getFunction(signature)!;
const RESOLVE = fn('resolve(bytes,bytes)');
const ADDR = fn('addr(bytes32)');
const ADDR_COIN = fn('addr(bytes32,uint256)');
const TEXT = fn('text(bytes32,string)');
const CONTENTHASH = fn('contenthash(bytes32)');
const MULTICALL = fn('multicall(bytes[])');
const ANSWERED = [ADDR, ADDR_COIN, TEXT, CONTENTHASH, MULTICALL];
const ANSWERED_LIST = ANSWERED.map((f) => f.format('sighash')).join(', ');

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
  { kind: 'addr' } | { kind: 'addrCoin'; coinType: bigint } | { kind: 'text'; key: string } | { kind: 'contenthash' };

/** A decoded gateway request: the normalised name and what is asked of it. */
export interface ResolveRequest {
  name: string;
  node: string;
  /** One query per inner call; several only for a multicall. */
  queries: RecordQuery[];
  multicall: boolean;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

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

/** The decoded arguments of `fragment` as plain values; ethers defers some decoding errors to the first read. */
function decodeArgs(fragment: FunctionFragment, data: string, field: string): unknown[] {
  try {
    const result = RESOLVER_ABI.decodeFunctionData(fragment, data);
    return result.toArray(true) as unknown[];
  } catch {
    throw new CalldataError(field, `does not decode as ${fragment.format('sighash')}`);
  }
}

function checkNode(node: unknown, expected: string, name: string, field: string): void {
  if (typeof node !== 'string' || node.toLowerCase() !== expected) {
    throw new CalldataError(field, `is ${String(node)}, not the namehash of ${name} (${expected})`);
  }
}

/** One inner call: the record it asks for after checking its node, or a multicall's calls where allowed. */
function decodeQuery(
  call: string,
  request: { name: string; node: string },
  fields: { call: string; node: string },
  allowMulticall: boolean,
): RecordQuery | string[] {
  const selector = call.slice(0, 10).toLowerCase();
  const fragment = ANSWERED.find((f) => f.selector === selector);
  if (call.length < 10) throw new CalldataError(fields.call, 'is shorter than a function selector');
  if (!fragment || (fragment === MULTICALL && !allowMulticall)) {
    throw new CalldataError(fields.call, `calls ${selector}; the gateway answers ${ANSWERED_LIST} (not nested)`, true);
  }
  const args = decodeArgs(fragment, call, fields.call);
  if (fragment === MULTICALL) return args[0] as string[];
  checkNode(args[0], request.node, request.name, fields.node);
  if (fragment === ADDR) return { kind: 'addr' };
  if (fragment === ADDR_COIN) return { kind: 'addrCoin', coinType: args[1] as bigint };
  if (fragment === TEXT) return { kind: 'text', key: args[1] as string };
  return { kind: 'contenthash' };
}

/**
 * Decodes the calldata of resolve(bytes name, bytes data) (selector 0x9061b923): the DNS-encoded name, ENSIP-15
 * normalised, and the inner call(s), each of whose node must be the namehash of that name.
 */
export function decodeResolveCall(data: string): ResolveRequest {
  if (!isHexString(data) || data.length % 2 !== 0) throw new CalldataError('data', 'must be 0x-prefixed hex bytes');
  const selector = data.slice(0, 10).toLowerCase();
  if (data.length < 10 || selector !== RESOLVE_SELECTOR) {
    throw new CalldataError('data', `is not a resolve(bytes,bytes) call (selector ${RESOLVE_SELECTOR})`);
  }
  const [dnsName, call] = decodeArgs(RESOLVE, data, 'data') as [string, string];
  const name = normalize(decodeDnsName(getBytes(dnsName)), 'data.name');
  const request = { name, node: namehash(name) };
  const top = decodeQuery(call, request, { call: 'data.call', node: 'data.node' }, true);
  if (!Array.isArray(top)) return { ...request, queries: [top], multicall: false };
  const queries = top.map(
    (element, i) =>
      decodeQuery(element, request, { call: `data.calls[${i}]`, node: `data.calls[${i}].node` }, false) as RecordQuery,
  );
  return { ...request, queries, multicall: true };
}

/** The value a query's function returns: an address, bytes or a string. */
export type QueryValue = string;

/** The ABI-encoded return value of the inner function, as a resolver would return it on chain. */
export function encodeResult(query: RecordQuery, value: QueryValue): string {
  const fragment = { addr: ADDR, addrCoin: ADDR_COIN, text: TEXT, contenthash: CONTENTHASH }[query.kind];
  return RESOLVER_ABI.encodeFunctionResult(fragment, [value]);
}

/** The return value of multicall(bytes[]): one encoded result per inner call. */
export function encodeMulticallResult(results: string[]): string {
  return RESOLVER_ABI.encodeFunctionResult(MULTICALL, [results]);
}

/** The gateway's response `data`: abi.encode(bytes result, uint64 expires, bytes signature). */
export function encodeGatewayResponse(result: BytesLike, expires: bigint, signature: BytesLike): string {
  return AbiCoder.defaultAbiCoder().encode(['bytes', 'uint64', 'bytes'], [result, expires, signature]);
}
