/**
 * The name a gateway request is for: its DNS wire-format encoding (RFC 1035 section 3.1, as ENSIP-10 uses it)
 * decoded, ENSIP-15 normalised the way every other path of the service does it, and hashed.
 */
import { LRUCache } from 'lru-cache';
import { MAX_ENTRIES } from '../cache/record-cache';
import { nameHashBytes, NameError, normalizeName } from '../common/ens/names';
import { CalldataError } from './resolution.errors';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The name of a DNS wire-format encoding: length-prefixed labels up to a zero-length one, nothing after it.
 * Returns the labels joined by dots, as given (not normalised).
 */
function decodeDnsName(bytes: Uint8Array, field: string): string {
  const labels: string[] = [];
  let offset = 0;
  for (;;) {
    if (offset >= bytes.length)
      throw new CalldataError(field, 'is truncated: it ends before its zero-length root label');
    const length = bytes[offset];
    if (length === 0) {
      if (offset + 1 !== bytes.length) {
        throw new CalldataError(
          field,
          `has ${bytes.length - offset - 1} bytes after its zero-length root label (an empty label ends the name)`,
        );
      }
      break;
    }
    const end = offset + 1 + length;
    if (end > bytes.length) {
      throw new CalldataError(field, `is truncated: label ${labels.length + 1} claims ${length} bytes past the end`);
    }
    let label: string;
    try {
      label = utf8.decode(bytes.subarray(offset + 1, end));
    } catch {
      throw new CalldataError(field, `label ${labels.length + 1} is not valid UTF-8`);
    }
    if (label.includes('.')) throw new CalldataError(field, `label ${labels.length + 1} contains a dot`);
    labels.push(label);
    offset = end;
  }
  if (labels.length === 0) throw new CalldataError(field, 'is the root name, which has no records here');
  return labels.join('.');
}

/** A request's name: normalised, and its ENSIP-1 namehash as hex and as bytes. */
export interface DecodedName {
  name: string;
  node: string;
  nodeBytes: Uint8Array;
}

function normalize(raw: string, field: string): string {
  try {
    return normalizeName(raw, 1);
  } catch (e) {
    if (e instanceof NameError) throw new CalldataError(field, e.message);
    throw e;
  }
}

/**
 * Names recently decoded, by their DNS encoding: a resolver asks for the same names again and again. As many as
 * the subname cache holds (MAX_ENTRIES): a smaller memo forgot every name a cached answer was read for whenever
 * more than its size were in use, and hashed each again (about a fifth of a resolution's own work).
 */
const names = new LRUCache<string, DecodedName, Uint8Array>({
  max: MAX_ENTRIES,
  maxEntrySize: 256,
  // Sized by key, so long names are decoded every time (an empty key, which lru-cache cannot size, never decodes).
  sizeCalculation: (_name, key) => key.length,
  memoMethod: (_key, _stale, { context: dns }) => {
    const name = normalize(decodeDnsName(dns, 'data.name'), 'data.name');
    const nodeBytes = nameHashBytes(name);
    return { name, node: `0x${nodeBytes.toString('hex')}`, nodeBytes };
  },
});

/** The DNS-encoded name decoded, ENSIP-15 normalised and hashed; refusals are not remembered. */
export function decodeName(dns: Uint8Array): DecodedName {
  const key = Buffer.from(dns.buffer, dns.byteOffset, dns.length).toString('latin1');
  return names.memo(key, { context: dns });
}
