import { LRUCache } from 'lru-cache';
import { keccak256Bytes } from '../crypto/keccak';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const MIXED_CASE = /([A-F].*[a-f])|([a-f].*[A-F])/;

function eip55(lower: string): string {
  const hash = keccak256Bytes(Buffer.from(lower.slice(2), 'latin1'));
  let checksummed = '0x';
  for (let i = 0; i < 40; i++) {
    const c = lower[i + 2];
    const nibble = i % 2 === 0 ? hash[i >> 1] >> 4 : hash[i >> 1] & 0x0f;
    checksummed += nibble >= 8 ? c.toUpperCase() : c;
  }
  return checksummed;
}

/** Recent checksums by lower-case address: a few owners and minters come back again and again. */
const checksums = new LRUCache<string, string>({ max: 10_000, memoMethod: eip55 });

/**
 * EIP-55 of a 0x-prefixed 40-hex-digit address in any case, with the native keccak (evm-address.spec.ts proves it
 * equal to ethers' getAddress and to address-encoder's EVM coder over generated addresses).
 */
export function checksumAddress(address: string): string {
  return checksums.memo(address.toLowerCase());
}

export function isHexAddress(value: string): boolean {
  return HEX_ADDRESS.test(value);
}

/**
 * ethers' getAddress for a 0x-prefixed 40-hex-digit address: its EIP-55 form, or null when a mixed-case input
 * fails its checksum (all lower or all upper case carries none).
 */
export function checkedHexAddress(address: string): string | null {
  const checksummed = checksumAddress(address);
  return MIXED_CASE.test(address) && address !== checksummed ? null : checksummed;
}
