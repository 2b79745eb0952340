import { getCoderByCoinType } from '@ensdomains/address-encoder';
import { LRUCache } from 'lru-cache';
import { contenthashBytes } from '../common/ens/records';
import type { SubnameRecords } from '../subnames/subnames.service';
import {
  bytesArrayElementSize,
  EMPTY_BYTES_ARRAY_SIZE,
  encodeAddressResult,
  encodeBytesArrayResult,
  encodeBytesResult,
  encodeStringResult,
} from './answer-encoding';
import type { RecordQuery, ResolveRequest } from './request-decoding';
import { CalldataError } from './resolution.errors';

/**
 * The most bytes one answer's result may take: every record one name can hold, each asked once, fits (50 texts
 * of 2,000 four-byte characters and 50 addresses come to about 420 KB), a multicall repeating one long record
 * does not.
 */
export const MAX_ANSWER_BYTES = 512 * 1024;
/** An answer may also be at most this many times its request's calldata, plus ANSWER_BASE_BYTES (issue 35.8). */
export const ANSWER_PER_REQUEST_BYTE = 64;
/** Room for any single call's answer (the longest text is about 8 KB) whatever the request's size. */
export const ANSWER_BASE_BYTES = 16 * 1024;

/** The most bytes the answer to `requestBytes` bytes of calldata may take: relative to it, and absolutely. */
export function answerLimit(requestBytes: number): number {
  return Math.min(MAX_ANSWER_BYTES, ANSWER_PER_REQUEST_BYTE * requestBytes + ANSWER_BASE_BYTES);
}

/** The refusal of a multicall whose answers pass `limit`, naming the bound that governs. */
function tooLarge(limit: number, requestBytes: number): CalldataError {
  if (limit === MAX_ANSWER_BYTES) {
    return new CalldataError(
      'data.call',
      `asks for answers of more than ${limit} bytes, the most one gateway answer holds`,
    );
  }
  return new CalldataError(
    'data.call',
    `asks for answers of more than ${limit} bytes, the most a request of ${requestBytes} bytes gets ` +
      `(${ANSWER_PER_REQUEST_BYTE} times its size plus ${ANSWER_BASE_BYTES})`,
  );
}

export const COIN_TYPE_ETH = 60n;
/** ENSIP-19's default EVM address: chain id 0 as an ENSIP-11 coin type. */
export const COIN_TYPE_DEFAULT = 0x80000000n;
const MAX_COIN_TYPE = 0xffffffffn;

/**
 * ENSIP-19's chainFromCoinType(coinType) > 0: coin 60 (Ethereum mainnet, chain 1) and every ENSIP-11 coin type of a
 * chain (0x80000000 | chainId, chainId > 0). These fall back to the default EVM address; the default itself does not.
 */
export function isEvmCoinType(coinType: bigint): boolean {
  return coinType === COIN_TYPE_ETH || (coinType > COIN_TYPE_DEFAULT && coinType <= MAX_COIN_TYPE);
}

/** Decoded stored addresses by coin type and text: decoding an EVM address checks its checksum, a keccak. */
const decodedAddresses = new LRUCache<string, Uint8Array | false, { coinType: bigint; value: string }>({
  max: 4096,
  memoMethod: (_key, _stale, { context: { coinType, value } }) => {
    try {
      return getCoderByCoinType(Number(coinType)).decode(value);
    } catch {
      // Writes only store addresses that decode; a row that does not is answered as no record rather than a 500.
      return false;
    }
  },
});
const NONE = new Uint8Array(0);

/** The ENSIP-9 binary form of an address as stored for a coin type, or null when it does not decode. */
function decodeAddress(coinType: bigint, value: string): Uint8Array | null {
  return decodedAddresses.memo(`${coinType}:${value}`, { context: { coinType, value } }) || null;
}

/** The stored address of exactly this coin type in its ENSIP-9 binary form, or null. Shared: never mutate it. */
function storedAddressBytes(addresses: Record<string, string>, coinType: bigint): Uint8Array | null {
  if (coinType > MAX_COIN_TYPE || !Object.hasOwn(addresses, String(coinType))) return null;
  return decodeAddress(coinType, addresses[String(coinType)]);
}

/** The coin's own address, else the default EVM address for an EVM coin type, else null (ENSIP-19). */
function addressOrDefault(records: SubnameRecords | null, coinType: bigint): Uint8Array | null {
  if (!records) return null;
  const own = storedAddressBytes(records.addresses, coinType);
  if (own) return own;
  if (!isEvmCoinType(coinType)) return null;
  return storedAddressBytes(records.addresses, COIN_TYPE_DEFAULT);
}

/** Contenthash URIs in their ENSIP-7 binary form. */
const contenthashes = new LRUCache<string, Uint8Array>({
  max: 1024,
  memoMethod: (uri) => Buffer.from(contenthashBytes(uri).slice(2), 'hex'),
});

function contenthashOf(uri: string): Uint8Array {
  return contenthashes.memo(uri);
}

/** The ABI-encoded return value of the inner call `query` for these records (empty values when none). */
function resultBytes(query: RecordQuery, records: SubnameRecords | null, primaryName: string): Uint8Array {
  switch (query.kind) {
    case 'addr': {
      const address = addressOrDefault(records, COIN_TYPE_ETH);
      return encodeAddressResult(address?.length === 20 ? address : null);
    }
    case 'addrCoin':
      return encodeBytesResult(addressOrDefault(records, query.coinType) ?? NONE);
    case 'text':
      return encodeStringResult(records && Object.hasOwn(records.texts, query.key) ? records.texts[query.key] : '');
    case 'contenthash':
      return encodeBytesResult(records?.contenthash ? contenthashOf(records.contenthash) : NONE);
    case 'name':
      return encodeStringResult(primaryName);
  }
}

/**
 * The ABI-encoded result of the request's inner call (for a multicall, bytes[] of each call's result), refused
 * as soon as the results built pass answerLimit(requestBytes) (the calldata's length; unknown: MAX_ANSWER_BYTES);
 * name() answers `primaryName`, the name's primary-name answer ("" for any name that is not an address's reverse
 * name).
 */
export function answerBytes(
  request: ResolveRequest,
  records: SubnameRecords | null,
  primaryName = '',
  requestBytes = Infinity,
): Uint8Array {
  if (!request.multicall) return resultBytes(request.queries[0], records, primaryName);
  const limit = answerLimit(requestBytes);
  const results: Uint8Array[] = [];
  let size = EMPTY_BYTES_ARRAY_SIZE;
  for (const query of request.queries) {
    const result = resultBytes(query, records, primaryName);
    size += bytesArrayElementSize(result.length);
    if (size > limit) throw tooLarge(limit, requestBytes);
    results.push(result);
  }
  return encodeBytesArrayResult(results);
}
