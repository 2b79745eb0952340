import { getCoderByCoinType } from '@ensdomains/address-encoder';
import { getAddress, hexlify, ZeroAddress } from 'ethers';
import { contenthashBytes } from '../common/records';
import type { SubnameRecords } from '../subnames/subnames.service';
import {
  encodeMulticallResult,
  encodeResult,
  type QueryValue,
  type RecordQuery,
  type ResolveRequest,
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

/** The stored address of exactly this coin type in its ENSIP-9 binary form, or null. */
function storedAddressBytes(addresses: Record<string, string>, coinType: bigint): Uint8Array | null {
  if (coinType > MAX_COIN_TYPE || !Object.hasOwn(addresses, String(coinType))) return null;
  try {
    return getCoderByCoinType(Number(coinType)).decode(addresses[String(coinType)]);
  } catch {
    // Writes only store addresses that decode; a row that does not is answered as no record rather than a 500.
    return null;
  }
}

/**
 * The address of a coin in its ENSIP-9 binary form (0x when none), as ENS's reference resolver answers
 * addr(node, coinType) since ENSIP-19: the coin's own record, else the default EVM address for an EVM coin type.
 */
export function addressBytes(records: SubnameRecords | null, coinType: bigint): string {
  if (!records) return '0x';
  const own = storedAddressBytes(records.addresses, coinType);
  if (own) return hexlify(own);
  if (!isEvmCoinType(coinType)) return '0x';
  const fallback = storedAddressBytes(records.addresses, COIN_TYPE_DEFAULT);
  return fallback ? hexlify(fallback) : '0x';
}

/** What the inner function returns for these records: a name that is not stored has every record empty. */
export function queryValue(query: RecordQuery, records: SubnameRecords | null): QueryValue {
  switch (query.kind) {
    case 'addr': {
      // addr(bytes32) is addr(node, 60) as an address (the zero address when none).
      const bytes = addressBytes(records, COIN_TYPE_ETH);
      return bytes.length === 2 + 40 ? getAddress(bytes) : ZeroAddress;
    }
    case 'addrCoin':
      return addressBytes(records, query.coinType);
    case 'text':
      return records && Object.hasOwn(records.texts, query.key) ? records.texts[query.key] : '';
    case 'contenthash':
      return records?.contenthash ? contenthashBytes(records.contenthash) : '0x';
  }
}

/** The ABI-encoded result of the request's inner call (for a multicall, bytes[] of each call's result). */
export function answer(request: ResolveRequest, records: SubnameRecords | null): string {
  const results = request.queries.map((q) => encodeResult(q, queryValue(q, records)));
  return request.multicall ? encodeMulticallResult(results) : results[0];
}
