import { concat, getBytes, toUtf8Bytes } from 'ethers';
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
