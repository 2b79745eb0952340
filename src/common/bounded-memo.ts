/**
 * Results of a pure function by key, for the hot paths that meet the same few inputs again and again (names,
 * addresses, contenthashes). At most `kept` are held, all forgotten at once when full (cheap, and bounded);
 * keys longer than `maxKeyChars` are computed every time. A computation that throws is not remembered.
 */
export class BoundedMemo<V> {
  private readonly values = new Map<string, V>();

  constructor(
    private readonly kept: number,
    private readonly maxKeyChars = Infinity,
  ) {}

  /** The remembered value of `key`, without computing one. */
  peek(key: string): V | undefined {
    return this.values.get(key);
  }

  get(key: string, compute: (key: string) => V): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = compute(key);
      if (key.length <= this.maxKeyChars) {
        if (this.values.size >= this.kept) this.values.clear();
        this.values.set(key, value);
      }
    }
    return value;
  }
}
