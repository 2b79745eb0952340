import { normalizeLabel } from '../common/ens/names';
import { UINT256_LIMIT } from './pricing';

/** ENS Name Wrapper fuse bits (ens-contracts INameWrapper.sol) that decide which fuse sets a mint can burn. */
export const CANNOT_UNWRAP = 1;
export const PARENT_CANNOT_CONTROL = 1 << 16;
export const IS_DOT_ETH = 1 << 17;
const OWNER_CONTROLLED_FUSES = 0xffff;
export const MAX_UINT32 = 0xffffffff;
export const MAX_LABEL_LENGTH_KEY = 255;
export const MAX_RESERVED_LABELS = 1000;

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** A wei amount: a decimal string (no sign, no leading zeros, no exponent) below 2^256. */
export function weiProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a decimal string of wei (for example "1000000000000000")';
  if (!DECIMAL.test(value) || value.length > 78) return 'must be a decimal string of wei without sign or leading zeros';
  if (BigInt(value) >= UINT256_LIMIT) return 'must be below 2^256';
  return null;
}

/**
 * Fuses the Name Wrapper accepts in setSubnodeRecord: a uint32 without IS_DOT_ETH (only the .eth registrar
 * sets it), and when any owner-controlled fuse (bits 0-15) is burned, PARENT_CANNOT_CONTROL and CANNOT_UNWRAP
 * are burned too (otherwise the wrapper reverts with OperationProhibited and the mint fails).
 */
export function fusesProblem(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_UINT32) {
    return `must be an integer from 0 to ${MAX_UINT32} (a uint32 of Name Wrapper fuses)`;
  }
  if ((value & IS_DOT_ETH) !== 0) return 'must not contain IS_DOT_ETH (131072), which only the .eth registrar sets';
  const both = PARENT_CANNOT_CONTROL | CANNOT_UNWRAP;
  if ((value & OWNER_CONTROLLED_FUSES) !== 0 && ((value >>> 0) & both) !== both) {
    return 'burns an owner-controlled fuse, which the Name Wrapper allows only with PARENT_CANNOT_CONTROL (65536) and CANNOT_UNWRAP (1)';
  }
  return null;
}

/** `{"<label length>": wei}`: lengths 1-255 in code points, each with a wei amount. */
export function lengthPricesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be an object from label length ("1" to "255") to a wei decimal string';
  }
  for (const [key, price] of Object.entries(value)) {
    if (!/^[1-9][0-9]{0,2}$/.test(key) || Number(key) > MAX_LABEL_LENGTH_KEY) {
      return `has key ${JSON.stringify(key)}; keys are label lengths from "1" to "${MAX_LABEL_LENGTH_KEY}"`;
    }
    const problem = weiProblem(price);
    if (problem) return `entry "${key}" ${problem}`;
  }
  return null;
}

/** Reserved labels: an array of ENS labels, handed over normalised without duplicates; or throws the reason. */
export function canonicalReservedLabels(value: unknown): string[] {
  if (!Array.isArray(value)) throw new Error('must be an array of labels');
  if (value.length > MAX_RESERVED_LABELS) throw new Error(`must have at most ${MAX_RESERVED_LABELS} labels`);
  const labels = value.map((label: unknown, i) => {
    try {
      if (typeof label !== 'string') throw new Error('must be a string');
      return normalizeLabel(label);
    } catch (e) {
      throw new Error(`entry ${i} (${JSON.stringify(label)}) ${(e as Error).message}`);
    }
  });
  return [...new Set(labels)];
}
