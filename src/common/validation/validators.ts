import { Transform } from 'class-transformer';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { normalizeLabel, normalizeName, normalizeOrThrow } from '../ens/names';
import { checksumAddress } from '../ens/evm-address';
import {
  checkedAddress,
  checkedContenthash,
  coinProblem,
  evmAddressProblem,
  metadataKeyProblem,
  recordValueProblem,
  textKeyProblem,
} from '../ens/records';

type Problem = (value: unknown, args: ValidationArguments) => string | null;

/** Builds a property decorator from a function that names what is wrong with a value, or returns null. */
export function satisfies(name: string, problem: Problem, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => problem(value, args) === null,
        defaultMessage: (args: ValidationArguments) => problem(args.value, args) ?? 'is invalid',
      },
    });
}

/** Why a raw input was refused: left in the DTO by a canonicalising transform for its validator to report. */
export class Refusal {
  constructor(readonly reason: string) {}
}

export interface CanonicalOptions extends ValidationOptions {
  /** Left out is fine (other validators on the field may still require it). */
  optional?: boolean;
}

/** Turns a raw input into its canonical form, or throws an Error whose message says why it cannot. */
type Canonicalize = (raw: unknown, source: Record<string, unknown>) => unknown;

/**
 * Validates and canonicalises a field in one pass while the pipe builds the DTO: the transform hands the
 * service the canonical value (normalised name, EIP-55 address, contenthash URI), so nothing downstream
 * normalises again; a value that cannot be canonicalised becomes a Refusal that the validator reports.
 * Undefined and null pass through untouched, for @IsOptional / "is required" to decide.
 */
export function canonical(name: string, canonicalize: Canonicalize, options?: CanonicalOptions): PropertyDecorator {
  const transform = Transform(
    ({ value, obj }: { value: unknown; obj: Record<string, unknown> }) => {
      if (value === undefined || value === null) return value;
      try {
        return canonicalize(value, obj);
      } catch (e) {
        return new Refusal((e as Error).message);
      }
    },
    { toClassOnly: true },
  );
  const check = satisfies(
    name,
    (value, args) => {
      if (value instanceof Refusal) return value.reason;
      if (value !== undefined && value !== null) return null;
      if (value === undefined && options?.optional) return null;
      // A required field left out or null (optional ones are skipped by @IsOptional before this runs).
      try {
        canonicalize(value, args.object as Record<string, unknown>);
        return 'is required';
      } catch (e) {
        return (e as Error).message;
      }
    },
    options,
  );
  return (target: object, propertyName: string | symbol) => {
    transform(target, propertyName);
    check(target, propertyName);
  };
}

interface NameOptions extends CanonicalOptions {
  /** Bounds of the length in UTF-16 code units, held by the normalised form: what is stored is what is bounded. */
  length?: [number, number];
}

function stringOf(raw: unknown): string {
  if (typeof raw !== 'string') throw new Error('must be a string');
  return raw;
}

/** The length bounds, on the ENSIP-15 normalised form: so whatever is stored can be sent back and accepted. */
function checkLength(raw: string, options?: NameOptions): void {
  const length = options?.length;
  if (!length) return;
  if (raw.length === 0 && length[0] > 0) throw new Error(`must be longer than or equal to ${length[0]} characters`);
  const normal = normalizeOrThrow(raw);
  const after = normal.length === raw.length ? '' : ' after ENSIP-15 normalisation';
  if (normal.length < length[0]) throw new Error(`must be longer than or equal to ${length[0]} characters${after}`);
  if (normal.length > length[1]) throw new Error(`must be shorter than or equal to ${length[1]} characters${after}`);
}

function boundedLabel(raw: unknown, options?: NameOptions): string {
  const text = stringOf(raw);
  if (!text.includes('.')) checkLength(text, options);
  return normalizeLabel(text);
}

function boundedName(raw: unknown, minLabels: number, options?: NameOptions): string {
  const text = stringOf(raw);
  checkLength(text, options);
  return normalizeName(text, minLabels);
}

/** One ENS label, handed over ENSIP-15 normalised. */
export const IsEnsLabel = (options?: NameOptions) =>
  canonical('isEnsLabel', (raw) => boundedLabel(raw, options), options);

/** A full ENS name of at least `minLabels` labels, handed over ENSIP-15 normalised. */
export const IsEnsName = (minLabels = 2, options?: NameOptions) =>
  canonical('isEnsName', (raw) => boundedName(raw, minLabels, options), options);

/**
 * A list of full ENS names, each handed over ENSIP-15 normalised, duplicates dropped; an entry's problem is
 * reported as `[i] reason` on the list.
 */
export const IsEnsNameList = (minLabels: number, items: [number, number], options?: NameOptions) =>
  canonical(
    'isEnsNameList',
    (raw) => {
      if (!Array.isArray(raw)) throw new Error('must be an array of names');
      if (raw.length < items[0]) throw new Error(`must contain at least ${items[0]} name${items[0] === 1 ? '' : 's'}`);
      if (raw.length > items[1]) throw new Error(`must contain at most ${items[1]} names`);
      const names = raw.map((entry: unknown, i) => {
        try {
          return boundedName(entry, minLabels, options);
        } catch (e) {
          throw new Error(`[${i}] ${(e as Error).message}`);
        }
      });
      return [...new Set(names)];
    },
    options,
  );

/** An EVM address (a mixed-case one must pass its checksum), handed over EIP-55 checksummed. */
export const IsEvmAddress = (options?: CanonicalOptions) =>
  canonical(
    'isEvmAddress',
    (raw) => {
      const problem = evmAddressProblem(raw);
      if (problem) throw new Error(problem);
      return checksumAddress(raw as string);
    },
    options,
  );

/** `value` of an address record: decoded with its coin's coder and handed over in canonical text form. */
export const IsAddressForCoin = () => canonical('isAddressForCoin', (raw, source) => checkedAddress(source.coin, raw));

/** An ENSIP-7 contenthash given as a URI or 0x bytes, handed over as its URI. */
export const IsContenthash = () => canonical('isContenthash', (raw) => checkedContenthash(raw));

export const IsTextKey = () => satisfies('isTextKey', textKeyProblem);
export const IsRecordValue = () => satisfies('isRecordValue', recordValueProblem);
export const IsMetadataKey = () => satisfies('isMetadataKey', metadataKeyProblem);
export const IsCoinType = () => satisfies('isCoinType', coinProblem);

/** Refuses a second entry with the same `key` in an array of records, naming the first. */
export const HasUniqueEntries = (field: string) =>
  satisfies('hasUniqueEntries', (value) => {
    if (!Array.isArray(value)) return null;
    const seen = new Map<unknown, number>();
    for (const [i, entry] of value.entries()) {
      const k = (entry as Record<string, unknown> | null)?.[field];
      if (k === undefined) continue;
      if (seen.has(k)) return `has ${field} ${JSON.stringify(k)} twice (entries ${seen.get(k)} and ${i})`;
      seen.set(k, i);
    }
    return null;
  });

/**
 * Nested validation treats an array inside an array of objects as more entries, and would pass `[[]]` on to the
 * service: an entry that is an array is refused here, by its index.
 */
export const HasNoArrayEntries = () =>
  satisfies('hasNoArrayEntries', (value) => {
    if (!Array.isArray(value)) return null;
    const i = value.findIndex((entry) => Array.isArray(entry));
    return i === -1 ? null : `entry ${i} must be an object, not an array`;
  });
