import {
  coinNameToTypeMap,
  coinTypeToNameMap,
  evmCoinTypeToNameMap,
  getCoderByCoinType,
} from '@ensdomains/address-encoder';
import { decode as decodeContenthash, encode as encodeContenthash, getCodec } from '@ensdomains/content-hash';
import { isHexString } from 'ethers';
import { checkedHexAddress, isHexAddress } from './evm-address';

export const MAX_RECORDS = 50;
export const MAX_VALUE_CHARS = 2000;
export const MAX_METADATA_KEY_CHARS = 255;
export const MAX_TTL = 4294967295;
const EVM_BIT = 0x80000000;
const ETH_COIN = 60;

/** ENSIP-5 global keys and ENSIP-18 keys; other keys must be reverse-dot service keys. */
export const GLOBAL_TEXT_KEYS: readonly string[] = [
  'avatar',
  'description',
  'display',
  'email',
  'keywords',
  'mail',
  'notice',
  'location',
  'phone',
  'url',
  'alias',
  'theme',
  'header',
  'timezone',
  'language',
  'primary-contact',
];
const SERVICE_KEY = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;
/** ENSIP-26 agent keys, and ENSIP-25's `agent-registration[<ERC-7930 registry>][<agent id>]`. */
const AGENT_KEY =
  /^(?:agent-context|agent-endpoint\[(?:mcp|a2a|web)\]|agent-registration\[0x(?:[0-9a-fA-F]{2})+\]\[[^[\]\s\p{Cc}]+\])$/u;
const PRINTABLE = /^[^\p{Cc}\p{Cs}]+$/u;

export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function textKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'must be a string';
  if (GLOBAL_TEXT_KEYS.includes(key)) return null;
  if (key.length <= 255 && (SERVICE_KEY.test(key) || AGENT_KEY.test(key))) return null;
  return (
    'must be an ENSIP-5 or ENSIP-18 key (avatar, description, url, …), a reverse-dot service key (com.github) ' +
    'or an ENSIP-25/26 agent key (agent-context, agent-endpoint[mcp], agent-registration[0x…][id])'
  );
}

export function recordValueProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  const n = codePoints(value);
  if (n < 1 || n > MAX_VALUE_CHARS) return `must be 1 to ${MAX_VALUE_CHARS} characters`;
  return null;
}

export function metadataKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'must be a string';
  const n = codePoints(key);
  if (n < 1 || n > MAX_METADATA_KEY_CHARS) return `must be 1 to ${MAX_METADATA_KEY_CHARS} characters`;
  if (!PRINTABLE.test(key)) return 'must contain only printable characters';
  return null;
}

// ---- addresses (ENSIP-9 / ENSIP-11) ----

export function coinName(coinType: number): string | undefined {
  return (coinTypeToNameMap as Record<string, readonly [string, string] | undefined>)[String(coinType)]?.[0];
}

/** The coin type a coin name stands for (eth → 60), as @ensdomains/address-encoder names them. */
export function coinTypeOf(name: string): number | undefined {
  return Object.hasOwn(coinNameToTypeMap, name) ? (coinNameToTypeMap as Record<string, number>)[name] : undefined;
}

export function coinProblem(coin: unknown): string | null {
  // What the Namespace SDK sends for an addresses key it could not parseInt (a coin name).
  if (coin === null) {
    return 'is null: addresses in responses are keyed by coin name; send the header x-address-keys: coin-type to key them by coin type';
  }
  if (typeof coin !== 'number' || !Number.isInteger(coin) || coin < 0 || coin > 0xffffffff) {
    return 'must be an integer coin type from 0 to 4294967295';
  }
  if (coinName(coin) !== undefined) return null;
  const asEvm = (EVM_BIT | coin) >>> 0;
  if (coin < EVM_BIT && (evmCoinTypeToNameMap as Record<string, unknown>)[String(asEvm)]) {
    return `${coin} is not an ENSIP-9 coin type; for the EVM chain with id ${coin} use its ENSIP-11 coin type ${asEvm}`;
  }
  return `${coin} is not a coin type that @ensdomains/address-encoder names (ENSIP-9 / ENSIP-11)`;
}

/** The canonical text form of an address for a coin (EIP-55 for EVM chains), or throws with the reason. */
export function canonicalAddress(coin: number, value: string): string {
  if ((coin === ETH_COIN || (coin >= EVM_BIT && coinName(coin) !== undefined)) && isHexAddress(value)) {
    // address-encoder's EVM coders, by hand (evm-address.spec.ts proves them equal).
    const checksummed = checkedHexAddress(value);
    if (checksummed !== null) return checksummed;
    throw new Error(`is not a valid ${getCoderByCoinType(coin).name} address (fails its EIP-55 checksum)`);
  }
  const coder = getCoderByCoinType(coin);
  let bytes: Uint8Array;
  try {
    bytes = coder.decode(value);
  } catch (e) {
    if (/^0x[0-9a-fA-F]{40}$/.test(value) && value.slice(2) !== value.slice(2).toLowerCase()) {
      throw new Error(`is not a valid ${coder.name} address (fails its EIP-55 checksum)`);
    }
    throw new Error(`is not a valid ${coder.name} address (${(e as Error).message})`);
  }
  // The coders re-encode canonically: EIP-55 for EVM chains, lower-case bech32, and so on.
  return coder.encode(bytes);
}

/**
 * The canonical text of an address record's value for its coin, or throws with the reason. A value under an
 * unknown coin is returned as given: the coin field carries that error.
 */
export function checkedAddress(coin: unknown, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new Error('must be a non-empty string');
  if (value.length > 512) throw new Error('must be at most 512 characters');
  if (coinProblem(coin) !== null) return value;
  return canonicalAddress(coin as number, value);
}

// ---- owner ----

export function evmAddressProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (!isHexAddress(value)) return 'must be a 0x-prefixed 20-byte hex address';
  if (checkedHexAddress(value) === null) {
    return 'fails its EIP-55 checksum (use all lower case or the correct mixed case)';
  }
  return null;
}

// ---- contenthash (ENSIP-7) ----

type Codec = Parameters<typeof encodeContenthash>[0];
const SCHEME_CODEC: Record<string, Codec> = {
  ipfs: 'ipfs',
  ipns: 'ipns',
  bzz: 'swarm',
  sia: 'skynet',
  ar: 'arweave',
  onion: 'onion',
  onion3: 'onion3',
};
const CODEC_SCHEME: Record<string, string> = Object.fromEntries(Object.entries(SCHEME_CODEC).map(([s, c]) => [c, s]));
const CID_CODECS = new Set(['ipfs', 'ipns']);

/**
 * Checks a contenthash given as a URI or as 0x-encoded ENSIP-7 bytes and returns its URI form.
 * The library encodes garbage rather than failing, so a round trip decides.
 */
export function canonicalContenthash(input: string): string {
  if (input.startsWith('0x')) {
    const hex = input.slice(2).toLowerCase();
    if (hex.length === 0 || !isHexString(input) || hex.length % 2 !== 0)
      throw new Error('must be 0x followed by whole bytes of hex');
    const codec = safe(() => getCodec(hex)) as Codec | undefined;
    if (!codec || !CODEC_SCHEME[codec]) throw new Error('has an unknown or unsupported ENSIP-7 codec');
    const decoded = safe(() => decodeContenthash(hex));
    if (!decoded || safe(() => encodeContenthash(codec, decoded)) !== hex)
      throw new Error(`is not a valid ${codec} contenthash`);
    return `${CODEC_SCHEME[codec]}://${decoded}`;
  }
  const match = /^([a-z0-9]+):\/\/(.+)$/i.exec(input);
  if (!match)
    throw new Error('must be a URI (ipfs://, ipns://, bzz://, sia://, ar://, onion://, onion3://) or 0x-encoded bytes');
  const scheme = match[1].toLowerCase();
  const value = match[2];
  const codec = SCHEME_CODEC[scheme];
  if (!codec) throw new Error(`has an unsupported scheme ${scheme}://`);
  const hex = safe(() => encodeContenthash(codec, value));
  const decoded = hex ? safe(() => decodeContenthash(hex)) : undefined;
  const sameContent = CID_CODECS.has(codec)
    ? decoded !== undefined && safe(() => encodeContenthash(codec, decoded)) === hex
    : decoded !== undefined && (codec === 'swarm' ? decoded === value.toLowerCase() : decoded === value);
  if (!hex || !sameContent) throw new Error(`is not a valid ${scheme}:// content identifier`);
  return `${scheme}://${value}`;
}

/** A contenthash input's URI form, or throws with the reason. */
export function checkedContenthash(value: unknown): string {
  if (typeof value !== 'string') throw new Error('must be a string');
  if (value.length > 1024) throw new Error('must be at most 1024 characters');
  return canonicalContenthash(value);
}

/** Bytes of a stored contenthash URI, for on-chain style resolution. */
export function contenthashBytes(uri: string): string {
  const [scheme, value] = uri.split('://');
  return `0x${encodeContenthash(SCHEME_CODEC[scheme], value)}`;
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
