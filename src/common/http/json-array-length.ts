/**
 * The number of elements of the array that a JSON object text holds under `key` at its top level (the last
 * such key, as JSON.parse keeps the last), found by one pass over the characters without building a value:
 * what lets a route refuse an oversized array before parsing it. Undefined when the text is not an object,
 * has no such key (an escaped spelling of the key is not recognised), or its value is not an array.
 */
export function topLevelArrayLength(text: string, key: string): number | undefined {
  const quoted = JSON.stringify(key);
  let depth = 0;
  let result: number | undefined;
  /** Counting the elements of the array under `key`: its depth, and what has been seen of it so far. */
  let counting: { depth: number; elements: number; empty: boolean } | undefined;
  let expectKey = false;
  let pendingKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
      if (counting && depth === counting.depth) counting.empty = false;
      if (depth === 1 && expectKey) {
        pendingKey = text.slice(start, i + 1) === quoted;
        expectKey = false;
      } else if (depth === 1 && pendingKey) {
        result = undefined;
        pendingKey = false;
      }
      continue;
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (counting && depth === counting.depth && c !== 0x5d /* ] */) counting.empty = false;
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth === 2 && pendingKey) {
        if (c === 0x5b) counting = { depth: 2, elements: 0, empty: true };
        else result = undefined;
      }
      if (depth === 1) expectKey = c === 0x7b;
      pendingKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d) {
      if (counting && depth === counting.depth) {
        result = counting.empty ? 0 : counting.elements + 1;
        counting = undefined;
      }
      depth--;
    } else if (c === 0x2c /* , */) {
      if (counting && depth === counting.depth) counting.elements++;
      if (depth === 1) expectKey = true;
      pendingKey = depth === 1 ? false : pendingKey;
    } else if (c !== 0x3a /* : */ && depth === 1) {
      if (pendingKey) result = undefined;
      pendingKey = false;
    }
  }
  return result;
}
