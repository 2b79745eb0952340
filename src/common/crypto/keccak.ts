import { dirname } from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3';
import nodeGypBuild from 'node-gyp-build';

/**
 * The native Keccak sponge of the `keccak` package (its prebuilt binary, loaded without an install script). This
 * is not the package's documented API, hence the exact pin in package.json and the self-test below.
 */
export interface KeccakState {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  absorbLastFewBits(bits: number): void;
  squeeze(length: number): Buffer;
}

export type KeccakHash = (data: Uint8Array) => Uint8Array;

/** Keccak-256: rate 1088 bits, capacity 512, the original padding (0x01), 32 bytes out. */
const RATE = 1088;
const CAPACITY = 512;
const PADDING = 0x01;

/** Inputs and their Keccak-256: empty, one block, and past the 136-byte rate (two blocks). */
const KNOWN_ANSWERS: [Buffer, string][] = [
  [Buffer.alloc(0), 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'],
  [
    Buffer.from('The quick brown fox jumps over the lazy dog'),
    '4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15',
  ],
  [Buffer.alloc(200, 'a'), '96ea54061def936c4be90b518992fdc6f12f535068a256229aca54267b4d084d'],
];

function loadNative(): KeccakState | null {
  try {
    const State = nodeGypBuild(dirname(require.resolve('keccak/package.json'))) as unknown;
    return typeof State === 'function' ? (new (State as new () => KeccakState)() as KeccakState) : null;
  } catch {
    return null;
  }
}

/**
 * keccak256 through a native sponge, or null when there is none or it fails a known answer (a binding whose
 * undocumented methods changed): the caller then hashes in JavaScript. One state is reused, as every call runs
 * to completion before the next begins.
 */
export function nativeKeccak(state: KeccakState | null): KeccakHash | null {
  if (!state) return null;
  const hash: KeccakHash = (data) => {
    state.initialize(RATE, CAPACITY);
    state.absorb(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    state.absorbLastFewBits(PADDING);
    return state.squeeze(32);
  };
  try {
    const passes = KNOWN_ANSWERS.every(([input, digest]) => Buffer.from(hash(input)).toString('hex') === digest);
    return passes ? hash : null;
  } catch {
    return null;
  }
}

/**
 * keccak256 over bytes, as ethers' `keccak256` computes it (keccak.spec.ts proves them equal over generated
 * inputs of every length around the rate), three to five times faster with the native binary; @noble/hashes
 * where that does not load or answers wrong.
 */
export const keccak256Bytes: KeccakHash = nativeKeccak(loadNative()) ?? keccak_256;
