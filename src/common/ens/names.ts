import { ensNormalize } from 'ethers';
import { LRUCache } from 'lru-cache';
import { keccak256Bytes } from '../crypto/keccak';

/** The most bytes one DNS-encoded label carries; resolution through CCIP-Read needs every label to fit. */
export const MAX_LABEL_BYTES = 255;

export class NameError extends Error {}

function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * Names of lower-case ASCII letters, digits and hyphens, with no label extension (`--` as a label's third and
 * fourth characters): ENSIP-15 leaves them as they are (ens.spec.ts proves it over generated names).
 */
const PLAIN_ASCII = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;
const LABEL_EXTENSION = /(?:^|\.)[^.]{2}--/;

/** Recent normalisations (reads repeat names); the result, or the reason it failed. */
const normalised = new LRUCache<string, string | NameError>({
  max: 10_000,
  maxEntrySize: 256,
  sizeCalculation: (_result, raw) => raw.length,
  memoMethod: (raw) => ensip15(raw),
});

function ensip15(raw: string): string | NameError {
  try {
    return ensNormalize(raw);
  } catch (e) {
    // ethers says `invalid ENS name (<reason>)`; keep the reason, without its bidi marks.
    const short = (e as { shortMessage?: string }).shortMessage ?? (e as Error).message;
    const reason = short.replace(/^invalid ENS name \((.*)\)$/s, '$1').replace(/[\u200e\u200f]/g, '');
    return new NameError(`is not a valid ENS name (ENSIP-15: ${reason})`);
  }
}

/** ENSIP-15 (ethers' ensNormalize), with the plain-ASCII shortcut and the memo above. */
export function normalizeOrThrow(raw: string): string {
  if (raw.length === 0) throw new NameError('must not be empty');
  if (PLAIN_ASCII.test(raw) && !LABEL_EXTENSION.test(raw)) return raw;
  const result = normalised.memo(raw);
  if (result instanceof NameError) throw new NameError(result.message);
  return result;
}

/** ENSIP-15 normalisation of a single label; throws NameError with the reason. */
export function normalizeLabel(raw: string): string {
  if (raw.includes('.')) throw new NameError('must be a single label without dots');
  const label = normalizeOrThrow(raw);
  if (label.length === 0) throw new NameError('is empty after ENSIP-15 normalisation');
  if (label.includes('.')) throw new NameError('must be a single label without dots');
  if (utf8Length(label) > MAX_LABEL_BYTES)
    throw new NameError(`exceeds ${MAX_LABEL_BYTES} UTF-8 bytes after normalisation`);
  return label;
}

/** ENSIP-15 normalisation of a full name of at least `minLabels` labels; throws NameError with the reason. */
export function normalizeName(raw: string, minLabels = 2): string {
  const name = normalizeOrThrow(raw);
  const labels = name.split('.');
  if (labels.some((l) => l.length === 0)) throw new NameError('must not contain empty labels');
  if (labels.length < minLabels) throw new NameError(`must have at least ${minLabels} labels (for example oak.eth)`);
  if (labels.some((l) => utf8Length(l) > MAX_LABEL_BYTES)) {
    throw new NameError(`has a label over ${MAX_LABEL_BYTES} UTF-8 bytes`);
  }
  return name;
}

const ROOT_NODE = Buffer.alloc(32);

/** Nodes of recently hashed parents: a batch hashes hundreds of names under one parent, a mint signs its parent's. */
const parentNodes: LRUCache<string, Buffer> = new LRUCache<string, Buffer>({
  max: 1000,
  maxEntrySize: 256,
  sizeCalculation: (_node, name) => name.length,
  memoMethod: (name) => {
    const dot = name.indexOf('.');
    return dot === -1 ? childNode(ROOT_NODE, name) : childNode(nodeBytes(name.slice(dot + 1)), name.slice(0, dot));
  },
});

function nodeBytes(normalizedName: string): Buffer {
  return parentNodes.memo(normalizedName);
}

function childNode(parent: Buffer, label: string): Buffer {
  const preimage = Buffer.allocUnsafe(64);
  parent.copy(preimage, 0);
  preimage.set(keccak256Bytes(Buffer.from(label, 'utf8')), 32);
  return Buffer.from(keccak256Bytes(preimage));
}

/**
 * Length of a normalised label in Unicode code points: how ENS's on-chain StringUtils.strlen counts, so
 * `abc` is 3, `é` is 1, `🙂` is 1, and an emoji with a skin-tone modifier or a ZWJ sequence counts each of
 * its code points (`👍🏽` is 2).
 */
export function labelLength(label: string): number {
  let n = 0;
  for (const _ of label) n++;
  return n;
}

/**
 * ENSIP-1 namehash of a normalised name: 0x and 64 lower-case hex digits. keccak256(parent node ‖
 * keccak256(label)), with the parent's node remembered, so a name costs two hashes rather than two per label.
 */
export function nameHash(normalizedName: string): string {
  return `0x${nameHashBytes(normalizedName).toString('hex')}`;
}

/** nameHash as 32 bytes (the root, '', is 32 zero bytes). */
export function nameHashBytes(normalizedName: string): Buffer {
  if (normalizedName === '') return ROOT_NODE;
  const dot = normalizedName.indexOf('.');
  if (dot === -1) return childNode(ROOT_NODE, normalizedName);
  return childNode(nodeBytes(normalizedName.slice(dot + 1)), normalizedName.slice(0, dot));
}

/** The namehash of a parent name (one the service signs or writes under again and again), remembered. */
export function parentNameHash(normalizedName: string): string {
  return `0x${nodeBytes(normalizedName).toString('hex')}`;
}

/** True when `name` equals `ancestor` or lies anywhere under it (`x.oak.eth` under `oak.eth`, not `oakk.eth`). */
export function isSameOrUnder(name: string, ancestor: string): boolean {
  return name === ancestor || name.endsWith(`.${ancestor}`);
}

/**
 * Labels are stored ENSIP-15 normalised, so a fragment is normalised the same way when it can be
 * (`ALI` → `ali`, emoji lose FE0F); a fragment that is no valid name on its own (`a_b`, `50%`) is lower-cased.
 */
export function normalizeLabelFragment(raw: string): string {
  if (raw === '') return '';
  try {
    return ensNormalize(raw);
  } catch {
    return raw.normalize('NFC').toLowerCase();
  }
}

/**
 * Whether the trigram index (IDX_subnames_label_trgm) can serve a normalised fragment: pg_trgm needs a word of
 * three characters inside `%…%`, and only ASCII letters and digits count as word characters in every locale.
 * Other fragments (`a`, `ab`, `_a`, `--`, `日本`) are matched by reading the parent's rows, so a search allows
 * them under one parent only.
 */
export function isIndexedFragment(fragment: string): boolean {
  return /[a-z0-9]{3}/.test(fragment);
}
