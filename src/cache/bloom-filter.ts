/** murmur3's finaliser: spreads FNV-1a's weak low bits over the whole word. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Two FNV-1a hashes of the UTF-16 code units, from different offset bases, in one pass, into `into`. */
function hash(key: string, into: Uint32Array): void {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  into[0] = mix(a);
  // Odd, so that the probes of one key never collapse onto one bit.
  into[1] = mix(b) | 1;
}

/**
 * A Bloom filter of strings: `has` may say yes for a key never added (at about `rate` once `capacity` keys are
 * in), never no for one that was. Bits only, about 1.2 bytes a key at 1 %. Double hashing (Kirsch–Mitzenmacher).
 */
export class BloomFilter {
  readonly bits: number;
  readonly hashes: number;
  private readonly words: Uint32Array;
  /** The two hashes of the key at hand: scratch of this filter, so a lookup allocates nothing. */
  private readonly h = new Uint32Array(2);
  private added = 0;

  constructor(
    readonly capacity: number,
    rate: number,
  ) {
    if (!(capacity >= 1) || !(rate > 0 && rate < 1)) throw new Error(`no Bloom filter for ${capacity} at ${rate}`);
    this.bits = Math.ceil((-capacity * Math.log(rate)) / Math.LN2 ** 2);
    this.hashes = Math.max(1, Math.round((this.bits / capacity) * Math.LN2));
    this.words = new Uint32Array(Math.ceil(this.bits / 32));
  }

  /** Keys added that set at least one new bit: the distinct keys, give or take the false positives. */
  get size(): number {
    return this.added;
  }

  /** Adds `key` (again, harmlessly); true when it set a new bit, i.e. it was not in already. */
  add(key: string): boolean {
    hash(key, this.h);
    const h1 = this.h[0];
    const h2 = this.h[1];
    let fresh = false;
    for (let i = 0; i < this.hashes; i++) {
      const bit = ((h1 + Math.imul(i, h2)) >>> 0) % this.bits;
      const mask = 1 << (bit & 31);
      const word = this.words[bit >>> 5];
      if ((word & mask) === 0) {
        this.words[bit >>> 5] = word | mask;
        fresh = true;
      }
    }
    if (fresh) this.added += 1;
    return fresh;
  }

  has(key: string): boolean {
    hash(key, this.h);
    const h1 = this.h[0];
    const h2 = this.h[1];
    for (let i = 0; i < this.hashes; i++) {
      const bit = ((h1 + Math.imul(i, h2)) >>> 0) % this.bits;
      if ((this.words[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}
