import { concat, getBytes, Interface, toUtf8Bytes } from 'ethers';
import { CalldataError } from '../../src/resolution/resolution.errors';

/** Bytes from numbers (one byte each) and strings (their UTF-8), in order: hand-made DNS names and calldata. */
export const bytes = (...parts: (number | string)[]) =>
  getBytes(concat(parts.map((p) => (typeof p === 'number' ? new Uint8Array([p]) : toUtf8Bytes(p)))));

/** The CalldataError `fn` throws, as its field, message and whether it is unsupported; fails when none is thrown. */
export function refusal(fn: () => unknown): { field: string; message: string; unsupported: boolean } {
  try {
    fn();
  } catch (e) {
    if (e instanceof CalldataError) return { field: e.field, message: e.message, unsupported: e.unsupported };
    throw e;
  }
  throw new Error('no refusal');
}

/** The resolver calls the gateway answers, with resolve(bytes,bytes) that carries them: to encode requests with. */
export const RESOLVER_CALLS = new Interface([
  'function resolve(bytes name, bytes data)',
  'function addr(bytes32 node)',
  'function addr(bytes32 node, uint256 coinType)',
  'function text(bytes32 node, string key)',
  'function contenthash(bytes32 node)',
  'function multicall(bytes[] data)',
  'function name(bytes32 node)',
  'function pubkey(bytes32 node)',
]);
