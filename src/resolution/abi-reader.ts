/**
 * Reading ABI-encoded arguments straight from bytes, accepting exactly what ethers' Interface.decodeFunctionData
 * accepts (offsets anywhere, padding and trailing bytes unread, at most 1024 times the data read) and giving the
 * same values; ccip-codec.equivalence.spec.ts proves it against ethers.
 */

/** Thrown by the reader for data that does not decode; its caller names the call that is wrong. */
export const UNDECODABLE = Symbol('undecodable');
export const WORD = 32;
/** ethers refuses ABI data whose decoding reads more than this many times its length (its issue #4537). */
const MAX_INFLATION = 1024;
/** Strings of ABI data keep a leading BOM, as ethers' toUtf8String does. */
const utf8KeepBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A well-formed array with more elements than its reader was asked to read: refused before they are read. */
export class ArrayTooLongError extends Error {
  constructor(
    readonly elements: number,
    readonly max: number,
  ) {
    super(`${elements} elements, more than ${max}`);
  }
}

/**
 * The arguments of one call (its calldata after the selector), read the way ethers' ABI Reader reads them: every
 * word and every padded byte string must lie inside the data, an offset or length must be a safe integer, all that
 * is read must stay within `maxInflation` times the data (ethers' default, 1024), and offsets are not otherwise
 * checked.
 */
export class ArgsReader {
  private bytesRead = 0;
  readonly length: number;

  constructor(
    readonly data: Uint8Array,
    private readonly maxInflation = MAX_INFLATION,
  ) {
    this.length = data.length;
  }

  private count(n: number): void {
    this.bytesRead += n;
    if (this.bytesRead > this.maxInflation * this.length) throw UNDECODABLE;
  }

  /** The 32-byte word at `pos`, checked to lie inside the data; returns `pos`. */
  word(pos: number): number {
    if (pos + WORD > this.length) throw UNDECODABLE;
    this.count(WORD);
    return pos;
  }

  /** The word at `pos` as an offset or length: ethers refuses one above Number.MAX_SAFE_INTEGER. */
  index(pos: number): number {
    const d = this.data;
    this.word(pos);
    for (let i = pos; i < pos + 25; i++) if (d[i] !== 0) throw UNDECODABLE;
    if (d[pos + 25] > 0x1f) throw UNDECODABLE;
    let n = 0;
    for (let i = pos + 25; i < pos + WORD; i++) n = n * 256 + d[i];
    return n;
  }

  /** The dynamic `bytes` whose length word is at `pos`: its content, which must fit with its padding. */
  bytes(pos: number): Uint8Array {
    const length = this.index(pos);
    const padded = Math.ceil(length / WORD) * WORD;
    if (pos + WORD + padded > this.length) throw UNDECODABLE;
    this.count(length);
    return this.data.subarray(pos + WORD, pos + WORD + length);
  }

  /** The `bytes` argument whose offset (from `base`) is in the head word at `head`. */
  bytesAt(head: number, base = 0): Uint8Array {
    return this.bytes(base + this.index(head));
  }

  /**
   * The `bytes[]` argument whose offset is in the head word at `head`. An array of more than `maxElements` that
   * ethers would begin to read is refused with ArrayTooLongError before any element is read.
   */
  bytesArrayAt(head: number, maxElements = Infinity): Uint8Array[] {
    const pos = this.index(head);
    const n = this.index(pos);
    // ethers' rough bound against a stray length: each element takes a word from the array on.
    if (n * WORD > this.length - pos) throw UNDECODABLE;
    if (n > maxElements) throw new ArrayTooLongError(n, maxElements);
    const elements: Uint8Array[] = [];
    for (let i = 0; i < n; i++) elements.push(this.bytesAt(pos + WORD + i * WORD, pos + WORD));
    return elements;
  }

  /** The `string` argument whose offset is in the head word at `head`: strict UTF-8 as ethers' toUtf8String. */
  stringAt(head: number): string {
    const bytes = this.bytesAt(head);
    try {
      return utf8KeepBom.decode(bytes);
    } catch {
      throw UNDECODABLE;
    }
  }
}
