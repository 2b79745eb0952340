import { getCoderByCoinType } from '@ensdomains/address-encoder';
import { hexlify, ZeroAddress } from 'ethers';
import { BoundedMemo } from '../common/bounded-memo';
import { checksumAddress } from '../common/ens/evm-address';
import { contenthashBytes } from '../common/ens/records';
import type { SubnameRecords } from '../subnames/subnames.service';
import {
  encodeAddressResult,
  encodeBytesArrayResult,
  encodeBytesResult,
  encodeStringResult,
  type QueryValue,
  type RecordQuery,
  type ResolveRequest,
  toHex,
} from './ccip-codec';

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
const decodedAddresses = new BoundedMemo<Uint8Array | null>(4096);
const NONE = new Uint8Array(0);

/** The ENSIP-9 binary form of an address as stored for a coin type, or null when it does not decode. */
function decodeAddress(coinType: bigint, value: string): Uint8Array | null {
  return decodedAddresses.get(`${coinType}:${value}`, () => {
    try {
      return getCoderByCoinType(Number(coinType)).decode(value);
    } catch {
      // Writes only store addresses that decode; a row that does not is answered as no record rather than a 500.
      return null;
    }
  });
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

/**
 * The address of a coin in its ENSIP-9 binary form (0x when none), as ENS's reference resolver answers
 * addr(node, coinType) since ENSIP-19: the coin's own record, else the default EVM address for an EVM coin type.
 */
export function addressBytes(records: SubnameRecords | null, coinType: bigint): string {
  const bytes = addressOrDefault(records, coinType);
  return bytes ? hexlify(bytes) : '0x';
}

/** Contenthash URIs in their ENSIP-7 binary form. */
const contenthashes = new BoundedMemo<Uint8Array>(1024);

function contenthashOf(uri: string): Uint8Array {
  return contenthashes.get(uri, () => Buffer.from(contenthashBytes(uri).slice(2), 'hex'));
}

/** What the inner function returns for these records: a name that is not stored has every record empty. */
export function queryValue(query: RecordQuery, records: SubnameRecords | null, primaryName = ''): QueryValue {
  switch (query.kind) {
    case 'addr': {
      // addr(bytes32) is addr(node, 60) as an address (the zero address when none).
      const bytes = addressBytes(records, COIN_TYPE_ETH);
      return bytes.length === 2 + 40 ? checksumAddress(bytes) : ZeroAddress;
    }
    case 'addrCoin':
      return addressBytes(records, query.coinType);
    case 'text':
      return records && Object.hasOwn(records.texts, query.key) ? records.texts[query.key] : '';
    case 'contenthash':
      return records?.contenthash ? contenthashBytes(records.contenthash) : '0x';
    case 'name':
      return primaryName;
  }
}

/** encodeResult(query, queryValue(query, records)) as bytes, without the round trip through strings. */
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
 * The ABI-encoded result of the request's inner call (for a multicall, bytes[] of each call's result); name()
 * answers `primaryName`, the name's primary-name answer ("" for any name that is not an address's reverse name).
 */
export function answerBytes(request: ResolveRequest, records: SubnameRecords | null, primaryName = ''): Uint8Array {
  const results = request.queries.map((q) => resultBytes(q, records, primaryName));
  return request.multicall ? encodeBytesArrayResult(results) : results[0];
}

/** answerBytes as 0x-hex. */
export function answer(request: ResolveRequest, records: SubnameRecords | null, primaryName = ''): string {
  return toHex(answerBytes(request, records, primaryName));
}
